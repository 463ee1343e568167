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
