package engine

import (
	"fmt"
	"io"
)

// tracer writes one line per thing a request does, for a short run that an
// analyst wants to follow ("why did this request fail?") and for golden
// tests of the engine. Every call site checks s.tr != nil first, so an
// untraced run pays one comparison and no formatting.
type tracer struct {
	w     io.Writer
	lines int
	limit int
}

// trace writes a line at the current time about token ti's request.
func (s *sim) trace(ti int32, format string, args ...any) {
	tr := s.tr
	if tr.limit > 0 && tr.lines >= tr.limit {
		return
	}
	tr.lines++
	t := &s.toks[ti]
	q := &s.reqs[t.req]
	who := fmt.Sprintf("%s#%d", s.m.Entities[q.entity].Name, q.id)
	if t.attempt > 1 {
		who += fmt.Sprintf("/try%d", t.attempt)
	}
	if t.gate >= 0 {
		who += fmt.Sprintf(" copy%d", t.copyNo)
	}
	fmt.Fprintf(tr.w, "%12.4f %-18s %s\n", s.now, who, fmt.Sprintf(format, args...))
}

// where names the step token t stands on: "Service/Step".
func (s *sim) where(t *token) string {
	if t.depth == 0 {
		return "-"
	}
	f := t.top
	sv := &s.m.Services[f.svc]
	if int(f.step) >= len(sv.Steps) {
		return sv.Name + "/end"
	}
	return sv.Name + "/" + sv.Steps[f.step].Name
}
