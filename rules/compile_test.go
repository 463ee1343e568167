package rules

import (
	"errors"
	"strings"
	"testing"
)

// An expression past the node limit says so in words, and its caret shows
// the part around the column, not the whole text.
func TestTooLongExpression(t *testing.T) {
	src := strings.Repeat("1+", 2000) + "1"
	_, err := Compile(src, Time, Names{})
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "the expression is longer than websim computes (more than 1,000") {
		t.Fatalf("got %v", err)
	}
	if c := e.Caret(); len(c) > 300 || !strings.Contains(c, "…") {
		t.Errorf("caret of %d bytes:\n%s", len(c), c)
	}
}

// SettingsOnly: an expression of Settings names, literals and math has one
// value a scenario; anything read during a run makes it not so.
func TestSettingsOnly(t *testing.T) {
	names := Names{Params: []string{"P", "Q"}, Attrs: []string{"Cards"}, Servers: []string{"DB"}}
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"P", true}, {"min(P * 2, Q) + 0.1", true}, {"P > Q ? P : Q", true},
		{"0.5", false}, // a constant: checked when it is compiled
		{"P * AppUtil", false}, {"Cards / Q", false}, {"util(DB) < P ? 1 : 0", false}, {"Now * P", false},
	} {
		e, err := Compile(tt.src, Number, names)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if got := e.SettingsOnly(); got != tt.want {
			t.Errorf("SettingsOnly(%s) = %v, want %v", tt.src, got, tt.want)
		}
	}
}
