package authz

import (
	"bytes"
	"flag"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const (
	libraryDoc     = "../docs/library.md"
	methodsBegin   = "<!-- methods:begin -->\n"
	methodsEnd     = "<!-- methods:end -->"
	methodsHeading = "## Every method"
)

// TestLibraryDocMethods keeps docs/library.md's list of methods equal to
// the code: every exported method of *Authz and *Client with its
// signature and the first sentence of its doc comment; -update (or go
// generate ./authz) rewrites it.
func TestLibraryDocMethods(t *testing.T) {
	b, err := os.ReadFile(libraryDoc)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	i := strings.Index(page, methodsBegin)
	j := strings.Index(page, methodsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q block", libraryDoc, strings.TrimSpace(methodsBegin), methodsEnd)
	}
	i += len(methodsBegin)
	want := methodsList(t)
	if page[i:j] == want {
		return
	}
	if flag.Lookup("update").Value.(flag.Getter).Get().(bool) {
		if err := os.WriteFile(libraryDoc, []byte(page[:i]+want+page[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: list of methods rewritten", libraryDoc)
		return
	}
	t.Errorf("docs/library.md's list of methods differs from the code; run go generate ./authz\nwant:\n%s", want)
}

// methodsList is the generated block: one Go block per type.
func methodsList(t *testing.T) string {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, f := range pkgs["authz"].Files {
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/rolegate/rolegate/authz")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, typ := range []string{"Authz", "Client"} {
		i := slices.IndexFunc(p.Types, func(d *doc.Type) bool { return d.Name == typ })
		if i < 0 {
			t.Fatalf("no type %s", typ)
		}
		out.WriteString("```go\n")
		for k, m := range p.Types[i].Methods {
			if k > 0 {
				out.WriteString("\n")
			}
			out.WriteString("// " + p.Synopsis(m.Doc) + "\n")
			decl := *m.Decl
			decl.Doc, decl.Body = nil, nil
			var sig bytes.Buffer
			if err := printer.Fprint(&sig, fset, &decl); err != nil {
				t.Fatal(err)
			}
			out.WriteString(sig.String() + "\n")
		}
		out.WriteString("```\n")
	}
	return out.String()
}

var fencedGo = regexp.MustCompile("(?s)```go\n(.*?)```")

// TestLibraryDocExamples: every section of docs/library.md (but the
// generated list of methods) shows at least one Go block, and every Go
// block outside that list is a part, line for line, of a function of the
// tests of authz (an Example, mostly), authz/authztest or examples/hostapp,
// which go test compiles and runs.
func TestLibraryDocExamples(t *testing.T) {
	b, err := os.ReadFile(libraryDoc)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	if i, j := strings.Index(page, methodsBegin), strings.Index(page, methodsEnd); i >= 0 && j > i {
		page = page[:i] + page[j:]
	}
	bodies := exampleBodies(t)
	sections := strings.Split(page, "\n## ")[1:]
	if len(sections) < 4 {
		t.Fatalf("%s has %d sections", libraryDoc, len(sections))
	}
	for _, sec := range sections {
		title, _, _ := strings.Cut(sec, "\n")
		blocks := fencedGo.FindAllStringSubmatch(sec, -1)
		if len(blocks) == 0 && "## "+title != methodsHeading {
			t.Errorf("section %q shows no Go example", title)
		}
		for _, m := range blocks {
			if !slices.ContainsFunc(bodies, func(body string) bool { return strings.Contains(body, "\n"+m[1]) }) {
				t.Errorf("section %q: this block is not part of a test or Example function of authz, authz/authztest or examples/hostapp:\n%s", title, m[1])
			}
		}
	}
}

// exampleBodies returns the body of every Example and Test function of
// the tests of authz, authz/authztest and examples/hostapp, one tab of
// indentation removed, each line ending in a newline and the whole
// starting with one.
func exampleBodies(t *testing.T) []string {
	fset := token.NewFileSet()
	var bodies []string
	for _, dir := range []string{".", "authztest", "../examples/hostapp"} {
		bodies = append(bodies, funcBodies(t, fset, dir)...)
	}
	if len(bodies) == 0 {
		t.Fatal("no Example functions found")
	}
	return bodies
}

func funcBodies(t *testing.T, fset *token.FileSet, dir string) []string {
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, pkg := range pkgs {
		for name, f := range pkg.Files {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Example") && !strings.HasPrefix(fn.Name.Name, "Test") {
					continue
				}
				body := string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
				var b strings.Builder
				for _, line := range strings.Split(strings.Trim(body, "\n"), "\n") {
					b.WriteString("\n" + strings.TrimPrefix(line, "\t"))
				}
				bodies = append(bodies, b.String()+"\n")
			}
		}
	}
	return bodies
}
