package lb

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/internal/xlsx"
)

// Source is a parameter set read from a file, with where each value stands
// so that problems name the line or the cell.
type Source struct {
	Path     string     // the file as given
	Params   Params     // the values read, with any overrides applied
	Workbook *xlsx.Book // the workbook read, or nil for YAML; Close it

	where    map[string]string // key (as Validate names it) → location
	bad      map[string]bool   // keys already reported: no range check on them
	problems Problems
}

// IsWorkbook reports whether path names a workbook (.xlsx) rather than YAML.
func IsWorkbook(path string) bool { return strings.EqualFold(filepath.Ext(path), ".xlsx") }

// Load reads the parameters of path: a workbook when it ends in .xlsx, YAML
// otherwise. The error is Problems when the file cannot be used at all
// (missing, not YAML, not a workbook); problems with single values are kept
// for Check, so that all of them are reported at once.
func Load(path string) (*Source, error) {
	var src *Source
	var err error
	if IsWorkbook(path) {
		src, err = loadWorkbook(path)
	} else {
		src, err = loadYAML(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Problems{problemAt(filepath.Base(path), "no such file")}
	}
	return src, err
}

func newSource(path string) *Source {
	base := filepath.Base(path)
	return &Source{Path: path, where: map[string]string{"": base}, bad: map[string]bool{}}
}

// Override sets the top-level key from a command-line flag's text; problems
// are located at the flag (--number_of_servers) and reported by Check.
func (s *Source) Override(key, text string) {
	where := "--" + key
	s.where[key] = where
	delete(s.bad, key)
	if msg := s.Params.set(key, text); msg != "" {
		s.fail(key, where, msg)
	}
}

// Check returns every problem found, with those the values' ranges make,
// as Problems; nil when the parameters can be run.
func (s *Source) Check() error {
	ps := slices.Clone(s.problems)
	for _, kp := range s.Params.problems() {
		if s.bad[kp.key] {
			continue
		}
		ps = append(ps, problemAt(s.locate(kp.key), describeKey(kp.key)+kp.what))
	}
	// In file order: lines of a YAML file by number, then the rest (cells
	// in the order read), then the flags.
	slices.SortStableFunc(ps, func(a, b Problem) int {
		ra, la := placeOrder(a.Where())
		rb, lb := placeOrder(b.Where())
		if ra != rb {
			return ra - rb
		}
		return la - lb
	})
	return orNil(ps)
}

// placeOrder ranks a location: a YAML line (0, its number), a file or cell
// (1), a flag (2).
func placeOrder(where string) (rank, line int) {
	if strings.HasPrefix(where, "--") {
		return 2, 0
	}
	if i := strings.LastIndex(where, ":"); i >= 0 {
		if n, err := strconv.Atoi(where[i+1:]); err == nil {
			return 0, n
		}
	}
	return 1, 0
}

// describeKey is how a problem names its key: "number_of_servers " or
// "dma output_capacity "; types_of_requests-wide problems need no prefix.
func describeKey(key string) string {
	parts := strings.SplitN(key, ".", 3)
	switch {
	case len(parts) == 3:
		return parts[1] + " " + parts[2] + " "
	case len(parts) == 1 && key != KeyTypes:
		return key + " "
	}
	return ""
}

// locate returns where key stands, or the nearest enclosing place.
func (s *Source) locate(key string) string {
	for k := key; ; {
		if w, ok := s.where[k]; ok {
			return w
		}
		i := strings.LastIndex(k, ".")
		if i < 0 {
			if w, ok := s.where[KeyTypes]; ok && strings.HasPrefix(key, KeyTypes) {
				return w
			}
			return s.where[""]
		}
		k = k[:i]
	}
}

func (s *Source) fail(key, where, what string) {
	if key != "" {
		s.bad[key] = true
	}
	if strings.HasSuffix(key, "."+KeyProportion) {
		s.bad[sumKey] = true // a sum without this proportion would mislead
	}
	s.problems = append(s.problems, problemAt(where, what))
}

// found is a key, column or setting name met in the file, and where.
type found struct{ name, where string }

// reconcile reports the names met that websim does not know, with the
// closest known one, and the required names missing, once each: a key
// misspelt is not reported missing too. notes: unknown names with no close
// known one are the user's (notes columns) and are left alone.
func (s *Source) reconcile(unknown []found, present map[string]bool, known, required []string,
	keyPrefix, missingWhere, noun, in string, notes bool) {
	var absent []string
	for _, k := range known {
		if !present[k] {
			absent = append(absent, k)
		}
	}
	suggested := map[string]bool{}
	for _, u := range unknown {
		if c := suggest.Closest(u.name, absent); c != "" {
			s.fail(keyPrefix+c, u.where, fmt.Sprintf("unknown %s %q%s; did you mean %q?", noun, u.name, in, c))
			suggested[c] = true
		} else if !notes {
			s.fail("", u.where, fmt.Sprintf("unknown %s %q%s; expected one of %s", noun, u.name, in, strings.Join(known, ", ")))
		}
	}
	for _, k := range required {
		if !present[k] && !suggested[k] {
			s.fail(keyPrefix+k, missingWhere, fmt.Sprintf("missing %s %q%s", noun, k, in))
		}
	}
}
