package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// strictKeys reports every key of a JSON document that v's type does not
// read: unknown ones (encoding/json drops them silently) and ones spelled
// in another letter case or given twice (which encoding/json folds
// together, the last winning, so that a reviewer reading the first sees
// another file than the one restored). Each is named by its path.
func strictKeys(raw []byte, v any) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var bad []string
	if err := walkKeys(dec, reflect.TypeOf(v), "", &bad); err != nil {
		return nil, err
	}
	return bad, nil
}

var rawMessage = reflect.TypeOf(json.RawMessage(nil))

// walkKeys reads one value from dec, checking object keys against t.
func walkKeys(dec *json.Decoder, t reflect.Type, path string, bad *[]string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil // a scalar
	}
	switch {
	case delim == '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && t != rawMessage {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := walkKeys(dec, elem, fmt.Sprintf("%s[%d]", path, i), bad); err != nil {
				return err
			}
		}
	case delim == '{':
		fields := jsonFields(t)
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			at := key
			if path != "" {
				at = path + "." + key
			}
			ft, known := fields[key]
			switch {
			case fields == nil: // a map or an untyped value: any key
			case seen[key]:
				*bad = append(*bad, at+" (twice)")
			case !known:
				*bad = append(*bad, at)
			}
			seen[key] = true
			if err := walkKeys(dec, ft, at, bad); err != nil {
				return err
			}
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}

// jsonFields maps the JSON names of a struct's fields to their types; nil
// for a type whose keys are free (a map, an interface, raw JSON).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// errUnknownKeys names the keys strictKeys found.
func errUnknownKeys(file string, keys []string) error {
	return usageErr("%s: unknown or repeated keys, refused (a backup written by rolegatectl has none): %s", file, strings.Join(keys, ", "))
}
