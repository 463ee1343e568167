package modeltext_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/websim/websim/modeltext"
)

// FuzzParse: any input is parsed or refused with problems, never a panic;
// what parses is written in a form that parses back to the same text.
func FuzzParse(f *testing.F) {
	f.Add([]byte(base))
	f.Add([]byte(odd))
	goldens, _ := filepath.Glob(filepath.Join("testdata", "export", "*.yaml"))
	for _, g := range goldens {
		if data, err := os.ReadFile(g); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("A.xlsx:\n  S:\n    - [a, ~, a]\n    - {a: 1, (B): x, (C): {formula: =1}}\n    - {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := modeltext.Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		text, err := m.Text()
		if err != nil {
			t.Fatal(err)
		}
		m2, err := modeltext.Parse("again.yaml", text)
		if err != nil {
			t.Fatalf("the text written does not parse: %v\n%s", err, text)
		}
		again, err := m2.Text()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(text, again) {
			t.Fatalf("not canonical:\n%s\n---\n%s", text, again)
		}
	})
}
