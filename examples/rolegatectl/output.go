package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printTable writes rows under a header, columns aligned.
func printTable(w io.Writer, header []string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		clean := make([]string, len(r))
		for i, c := range r {
			// A name may hold tabs or newlines; keep one row per line.
			clean[i] = strings.NewReplacer("\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(c)
		}
		fmt.Fprintln(tw, strings.Join(clean, "\t"))
	}
	return tw.Flush()
}

// show prints data as JSON with -o json, else as a table of the given
// fields of each entry.
func (g *globals) showList(w io.Writer, rows []map[string]any, fields ...string) error {
	if g.output == "json" {
		if rows == nil {
			rows = []map[string]any{}
		}
		return printJSON(w, rows)
	}
	// Rows with time bounds (a server's direct lists): their columns too.
	for _, r := range rows {
		if r["starts_at"] != nil || r["expires_at"] != nil {
			fields = append(slices.Clip(fields), "starts_at", "expires_at", "held")
			break
		}
	}
	// who-can's users whose holding ends: when it does.
	for _, r := range rows {
		if r["until"] != nil {
			fields = append(slices.Clip(fields), "until")
			break
		}
	}
	header := make([]string, len(fields))
	for i, f := range fields {
		header[i] = strings.ToUpper(f)
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(fields))
		for j, f := range fields {
			if v, ok := r[f]; ok && v != nil {
				out[i][j] = fmt.Sprint(v)
			}
		}
	}
	return printTable(w, header, out)
}

// showResult prints the data of a single write or check: JSON with -o
// json, else the line.
func (g *globals) showResult(w io.Writer, data any, line string) error {
	if g.output == "json" {
		return printJSON(w, data)
	}
	_, err := fmt.Fprintln(w, line)
	return err
}
