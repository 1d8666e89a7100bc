// Package yamlpos finds where a value sits in a YAML document, so that a
// refused policy or cases file names the line of the entry at fault, and
// tells a key that is absent from one set to its zero value.
package yamlpos

import (
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Doc is a parsed document. The zero Doc (a document that did not parse)
// finds nothing.
type Doc struct {
	body ast.Node
}

// Parse parses data; a document that does not parse finds nothing (the
// decoder reports its error with its own position).
func Parse(data []byte) Doc {
	f, err := parser.ParseBytes(data, 0)
	if err != nil || len(f.Docs) == 0 {
		return Doc{}
	}
	return Doc{body: f.Docs[0].Body}
}

// Line is the line (from 1) of the value at path: string keys of
// mappings and int indexes of sequences. For a path that is not there, the
// line of the deepest part that is; 0 when not even the first is.
func (d Doc) Line(path ...any) int {
	line := 0
	n := d.body
	for _, step := range path {
		n = child(n, step)
		if n == nil {
			break
		}
		if tk := n.GetToken(); tk != nil && tk.Position != nil {
			line = tk.Position.Line
		}
	}
	return line
}

// Has reports whether the value at path is there (key keys of a mapping,
// indexes of a sequence).
func (d Doc) Has(path ...any) bool {
	n := d.body
	for _, step := range path {
		if n = child(n, step); n == nil {
			return false
		}
	}
	return n != nil
}

// child is the value under one step of a path, or nil.
func child(n ast.Node, step any) ast.Node {
	n = unwrap(n)
	switch s := step.(type) {
	case string:
		var pairs []*ast.MappingValueNode
		switch m := n.(type) {
		case *ast.MappingNode:
			pairs = m.Values
		case *ast.MappingValueNode:
			pairs = []*ast.MappingValueNode{m}
		}
		for _, kv := range pairs {
			if kv.Key != nil && keyString(kv.Key) == s {
				return kv.Value
			}
		}
	case int:
		if seq, ok := n.(*ast.SequenceNode); ok && s >= 0 && s < len(seq.Values) {
			return seq.Values[s]
		}
	}
	return nil
}

// unwrap looks through anchors and tags to the value.
func unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.AnchorNode:
			n = v.Value
		case *ast.TagNode:
			n = v.Value
		default:
			return n
		}
	}
}

func keyString(k ast.MapKeyNode) string {
	if s, ok := unwrap(k).(ast.ScalarNode); ok {
		if v, ok := s.GetValue().(string); ok {
			return v
		}
	}
	return k.String()
}
