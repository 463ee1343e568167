package modeltext

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// A text that YAML 1.1 reads as something else (a boolean, a number in
// base 60 or binary) is written quoted, so that PyYAML and other 1.1
// readers see text, as the import does.
func TestYAML11TextsQuoted(t *testing.T) {
	for _, c := range []struct {
		text   string
		quoted bool
	}{
		{"yes", true}, {"NO", true}, {"on", true}, {"Off", true}, {"y", true},
		{"12:30", true}, {"-1:20:30.5", true}, {"0b101", true},
		{"ASUM", false}, {"yesterday", false}, {"12:75", false}, {"L1", false},
	} {
		if got := str(c.text).Style == yaml.SingleQuotedStyle; got != c.quoted {
			t.Errorf("%q: quoted %v, want %v", c.text, got, c.quoted)
		}
	}
}
