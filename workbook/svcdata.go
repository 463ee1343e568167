package workbook

import (
	"math"
	"slices"
	"strings"

	"github.com/websim/websim/engine"
	"github.com/websim/websim/internal/suggest"
	"github.com/websim/websim/rules"
)

var serverSpec = sheetSpec{
	columns:  []string{"Server", "Capacity", "TimeLimit", "BackgroundInterArrival", "BackgroundServiceTime"},
	required: []string{"Server", "Capacity"},
}

// readServers reads ServerInfo (optional: a model may call no server).
func (r *reader) readServers() {
	t := r.table(r.svc, "ServerInfo", serverSpec, false)
	if t == nil || !t.has("Server") {
		return
	}
	seen := map[string]string{}
	for _, rw := range t.rows {
		name, nc, ok := r.rowName(t, rw, "Server", "server", "a server without a name", seen)
		if !ok {
			continue
		}
		if strings.EqualFold(name, "App") {
			r.errorf(t.file, t.sheet, nc.ref, "%q is reserved for the application servers; expected another name for an external server", name)
			continue
		}
		s := engine.Server{Name: name, Capacity: 1, Cell: loc(t, nc.ref)}
		if c := t.get(rw, "Capacity"); !t.has("Capacity") || c.bad {
		} else if c.blank() {
			r.errorf(t.file, t.sheet, c.ref, "server %q has no capacity; expected a whole number >= 1", name)
		} else if v, ok := r.wholeCellIn(t, c, 1, MaxServerCapacity, "capacity"); ok {
			s.Capacity = v
		}
		if c := t.get(rw, "TimeLimit"); !c.blank() {
			s.TimeLimitCell = loc(t, c.ref)
			if v, ok := r.numberCell(t, c, "time limit"); ok {
				switch {
				case v < 0:
					r.errorf(t.file, t.sheet, c.ref, "time limit %s is negative; expected a time > 0, or blank for no limit", formatNumber(v))
				case v == 0:
					// Many tools write 0 for no limit, and models written so
					// ran that way: it is kept, and said.
					r.warnf(t.file, t.sheet, c.ref, "time limit 0 is read as no limit; leave the cell blank for none, or give a time > 0")
				}
				s.TimeLimit = math.Max(v, 0)
			}
		}
		ia, iaOK := r.backgroundArrivals(t, t.get(rw, "BackgroundInterArrival"))
		st, stOK := r.dist(t, t.get(rw, "BackgroundServiceTime"))
		if iaOK && stOK && (ia == nil) != (st == nil) {
			missing := t.get(rw, "BackgroundServiceTime")
			what := "BackgroundServiceTime"
			if ia == nil {
				missing, what = t.get(rw, "BackgroundInterArrival"), "BackgroundInterArrival"
			}
			ref := missing.ref
			if !t.has(what) {
				ref = nc.ref
			}
			r.errorf(t.file, t.sheet, ref, "background load of %q needs both BackgroundInterArrival and BackgroundServiceTime; expected %s too, or neither", name, what)
		}
		s.BackgroundInterArrival, s.BackgroundServiceTime = ia, st
		if t.has("BackgroundInterArrival") {
			s.BackgroundInterArrivalCell = loc(t, t.get(rw, "BackgroundInterArrival").ref)
		}
		if t.has("BackgroundServiceTime") {
			s.BackgroundServiceTimeCell = loc(t, t.get(rw, "BackgroundServiceTime").ref)
		}
		r.model.Servers = append(r.model.Servers, s)
	}
}

// numberCell reads a plain number (text typed as a number is accepted).
func (r *reader) numberCell(t *table, c cell, what string) (float64, bool) {
	if c.bad {
		return 0, false
	}
	v, ok := parseNumber(c.text)
	if !ok {
		r.errorf(t.file, t.sheet, c.ref, "%s; expected a number for the %s", numberHint(c.text), what)
	}
	return v, ok
}

// wholeCell reads a whole number >= min.
func (r *reader) wholeCell(t *table, c cell, min int, what string) (int, bool) {
	return r.wholeCellIn(t, c, min, math.MaxInt32, what)
}

// wholeCellIn reads a whole number from min to limit.
func (r *reader) wholeCellIn(t *table, c cell, min, limit int, what string) (int, bool) {
	v, ok := r.numberCell(t, c, what)
	if !ok {
		return 0, false
	}
	if v > float64(limit) {
		r.errorf(t.file, t.sheet, c.ref, "%s %s exceeds the limit of %d; expected a whole number from %d to %d", what, formatNumber(v), limit, min, limit)
		return 0, false
	}
	if !isWhole(v) || v < float64(min) {
		r.errorf(t.file, t.sheet, c.ref, "%s %s is not a whole number >= %d; expected a whole number >= %d", what, formatNumber(v), min, min)
		return 0, false
	}
	return int(math.Round(v)), true
}

var arrivalsSpec = sheetSpec{
	columns:  []string{"Entity", "Patience", "RetryProbability", "RetryDelay", "MaxRetries"},
	required: []string{"Entity"},
	expected: " with the column Entity and one column of inter-arrival times per load level",
	extra:    true,
}

// entityRow remembers where an entity was defined.
type entityRow struct {
	t   *table
	ref string
}

// readArrivals reads the load levels and the entities.
func (r *reader) readArrivals() {
	t := r.table(r.svc, "Arrivals", arrivalsSpec, true)
	if t == nil || !t.has("Entity") {
		return
	}
	r.arrivals = t
	var loads []extraColumn
	for _, e := range t.extra {
		if i := r.loadIndex(e.header); i >= 0 {
			r.errorf(t.file, t.sheet, e.cell, "load %q repeats %s; expected each load header once", e.header, loads[i].cell)
			continue
		}
		if strings.Contains(e.header, ",") {
			r.warnf(t.file, t.sheet, e.cell, "load %q holds a comma, which --loads and the Loads setting read as a separator: this load runs only with Loads all; expected a label without commas (%s, say)",
				e.header, strings.ReplaceAll(e.header, ",", "_"))
		}
		loads = append(loads, e)
		r.model.Loads = append(r.model.Loads, e.header)
	}
	if len(loads) == 0 {
		r.errorf(t.file, t.sheet, "", "no load columns; expected one column per load level after Entity, headed by the level's label (e.g. L1), holding inter-arrival times")
	}
	seen := map[string]string{}
	for _, rw := range t.rows {
		name, nc, ok := r.rowName(t, rw, "Entity", "entity", "arrivals without an entity name", seen)
		if !ok {
			continue
		}
		if i := slices.IndexFunc(modelSheets, func(s string) bool { return strings.EqualFold(s, name) }); i >= 0 {
			r.errorf(t.file, t.sheet, nc.ref, "the entity %q has the name of the %s sheet; an entity's services are listed on a sheet of its own name, so it needs another name (say %sRequests)", name, modelSheets[i], name)
			continue
		}
		e := engine.Entity{Name: name, InterArrival: make([]engine.Dist, len(loads)),
			InterArrivalCells: make([]string, len(loads)), Cell: loc(t, nc.ref)}
		for i, l := range loads {
			c := t.at(rw, l.index)
			e.InterArrival[i] = r.interArrival(t, c, len(r.model.Entities), i)
			e.InterArrivalCells[i] = loc(t, c.ref)
		}
		patience := t.get(rw, "Patience")
		e.Patience, _ = r.dist(t, patience)
		if e.Patience != nil && e.Patience.Mean() == 0 {
			// Like a time limit of 0, perhaps meant as none; taken as
			// typed, it abandons every request not answered at once.
			r.warnf(t.file, t.sheet, patience.ref, "Patience %s: every request not answered the instant it arrives is abandoned by its user (its work still goes on); leave the cell blank for users who wait without limit, or give a time > 0", e.Patience)
		}
		e.RetryDelay, _ = r.dist(t, t.get(rw, "RetryDelay"))
		e.Cell = loc(t, nc.ref)
		if t.has("Patience") {
			e.PatienceCell = loc(t, patience.ref)
		}
		if t.has("RetryDelay") {
			e.RetryDelayCell = loc(t, t.get(rw, "RetryDelay").ref)
		}
		rp := t.get(rw, "RetryProbability")
		_, isNum := parseNumber(rp.text)
		isExpr := !rp.bad && !rp.blank() && !isNum && !looksNumeric(rp.text)
		switch {
		case rp.bad || rp.blank(): // no retries
		case isExpr:
			// An expression (of Elapsed, TimedOut, attributes, ...):
			// compiled once the attributes are read.
			r.retryExprs = append(r.retryExprs, retryExpr{entity: len(r.model.Entities), t: t, c: rp, maxRetriesBlank: t.get(rw, "MaxRetries").blank()})
		default:
			if v, ok := r.numberCell(t, rp, "retry probability"); ok {
				if msg := checkKind(v, rules.Probability); msg != "" {
					r.errorf(t.file, t.sheet, rp.ref, "%s", msg)
				} else {
					e.RetryProbability = v
				}
			}
		}
		if c := t.get(rw, "MaxRetries"); !c.blank() {
			if v, ok := r.wholeCell(t, c, 0, "MaxRetries"); ok {
				e.MaxRetries = v
			}
		} else if e.RetryProbability >= 1 && !c.bad && !isExpr {
			ref := c.ref
			if !t.has("MaxRetries") {
				ref = t.get(rw, "RetryProbability").ref
			}
			r.errorf(t.file, t.sheet, ref, "RetryProbability 1 without MaxRetries would retry a failing request forever; expected MaxRetries, a whole number >= 0")
		} else {
			e.MaxRetries = math.MaxInt32 // no cap: RetryProbability below 1 ends the retries
		}
		r.model.Entities = append(r.model.Entities, e)
		r.entityRows = append(r.entityRows, entityRow{t: t, ref: nc.ref})
	}
	if len(t.rows) == 0 {
		r.errorf(t.file, t.sheet, cellName(t.col["Entity"], t.headerRow+1), "no request type; expected a row with an entity name and its inter-arrival times, one column per load")
	}
}

// retryExpr is a RetryProbability cell holding an expression.
type retryExpr struct {
	entity          int
	t               *table
	c               cell
	maxRetriesBlank bool
}

// compileRetryExprs compiles the RetryProbability expressions as
// probabilities; they see Elapsed and TimedOut besides the attributes and
// settings. One that always gives the same value is that number.
func (r *reader) compileRetryExprs() {
	names := r.names()
	names.Retry = true
	for _, x := range r.retryExprs {
		e := &r.model.Entities[x.entity]
		n, ok := r.numberExpr(x.t, x.c, rules.Probability, names)
		if !ok || n == nil {
			continue
		}
		if v, isConst := n.(engine.Const); isConst {
			e.RetryProbability = float64(v)
			if v >= 1 && x.maxRetriesBlank {
				r.errorf(x.t.file, x.t.sheet, x.c.ref, "RetryProbability 1 without MaxRetries would retry a failing request forever; expected MaxRetries, a whole number >= 0")
			}
			continue
		}
		e.RetryProbabilityExpr = n
		if x.maxRetriesBlank {
			r.warnf(x.t.file, x.t.sheet, x.c.ref, "RetryProbability is an expression and MaxRetries is blank: where the expression gives 1, a failing request retries without end; expected MaxRetries, a whole number >= 0")
		}
	}
}

// entityIndex finds an entity by name, ignoring case.
func (r *reader) entityIndex(name string) int {
	return suggest.Index(r.model.Entities, name, func(e engine.Entity) string { return e.Name })
}

func (r *reader) entityNames() []string {
	out := make([]string, len(r.model.Entities))
	for i, e := range r.model.Entities {
		out[i] = e.Name
	}
	return out
}

var attributesSpec = sheetSpec{
	columns:  []string{"Entity", "Attribute", "Value"},
	required: []string{"Entity", "Attribute", "Value"},
}

// attrRow is one row of Attributes, compiled once every name is known.
type attrRow struct {
	t      *table
	entity int
	index  int // in Model.Attributes
	value  cell
}

// readAttributeNames reads the Attributes sheet's names, so that every
// expression can know them; the values are compiled by readAttributes.
func (r *reader) readAttributeNames() []attrRow {
	t := r.table(r.svc, "Attributes", attributesSpec, false)
	if t == nil || !t.has("Entity") || !t.has("Attribute") {
		return nil
	}
	var out []attrRow
	seen := map[[2]string]string{}
	for _, rw := range t.rows {
		ec, ac, vc := t.get(rw, "Entity"), t.get(rw, "Attribute"), t.get(rw, "Value")
		if ec.bad || ac.bad {
			continue
		}
		ename, aname := cleanText(ec.text), cleanText(ac.text)
		ei := r.entityIndex(ename)
		idx := -1
		if identifier.MatchString(aname) {
			// Known to expressions even when its row is wrong, so that
			// they do not report it again.
			for i, a := range r.model.Attributes {
				if a == aname {
					idx = i
				}
			}
			if idx < 0 {
				idx = len(r.model.Attributes)
				r.model.Attributes = append(r.model.Attributes, aname)
			}
		}
		switch {
		case r.arrivals == nil:
			continue // no entities to check against (reported there)
		case ename == "":
			r.errorf(t.file, t.sheet, ec.ref, "an attribute without an entity; expected an entity of Arrivals (%s)", strings.Join(r.entityNames(), ", "))
			continue
		case ei < 0:
			r.errorf(t.file, t.sheet, ec.ref, "unknown entity %q%s; expected an entity of Arrivals (%s)", ename, suggest.DidYouMean(ename, r.entityNames()), strings.Join(r.entityNames(), ", "))
			continue
		case aname == "":
			r.errorf(t.file, t.sheet, ac.ref, "an attribute without a name; expected a name of letters, digits and _ (e.g. Cards)")
			continue
		case !identifier.MatchString(aname):
			r.errorf(t.file, t.sheet, ac.ref, "attribute name %q cannot be used in expressions; expected letters, digits and _, not starting with a digit (e.g. %s)", aname, asIdentifier(aname))
			continue
		case reservedName(aname) != "":
			r.errorf(t.file, t.sheet, ac.ref, "attribute name %q is the built-in name %s, which expressions read instead; expected another name (e.g. My%s)", aname, reservedName(aname), aname)
			continue
		case r.settingNamed(aname) != "":
			r.errorf(t.file, t.sheet, ac.ref, "attribute name %q is also the setting %s of the Settings sheet, which expressions would no longer read (the attribute would hide it); expected another name (e.g. My%s)", aname, r.settingNamed(aname), aname)
			continue
		case vc.blank() && !vc.bad && t.has("Value"):
			r.errorf(t.file, t.sheet, vc.ref, "attribute %q has no value; expected a distribution such as UniformInt(1,6) or an expression", aname)
			continue
		}
		// Names differing in case only (Cards, cards) are two names to the
		// expressions but one to a reader of the sheet.
		key := [2]string{strings.ToLower(r.model.Entities[ei].Name), strings.ToLower(aname)}
		if prev, dup := seen[key]; dup {
			r.errorf(t.file, t.sheet, ac.ref, "attribute %q of %q repeats %s (names are compared ignoring case); expected each attribute once per entity", aname, r.model.Entities[ei].Name, prev)
			continue
		}
		seen[key] = ac.ref
		out = append(out, attrRow{t: t, entity: ei, index: idx, value: vc})
	}
	return out
}

// readAttributes compiles attribute values: a distribution, or else an
// expression that may read the attributes drawn before it.
func (r *reader) readAttributes(rows []attrRow) {
	names := r.names()
	drawn := map[int]map[int]bool{}
	for _, a := range rows {
		if drawn[a.entity] == nil {
			drawn[a.entity] = map[int]bool{}
		}
		at := engine.Attribute{Index: a.index, Cell: loc(a.t, a.value.ref)}
		ok := r.attributeValue(&at, a, names, drawn[a.entity])
		drawn[a.entity][a.index] = true
		if ok {
			e := &r.model.Entities[a.entity]
			e.Attributes = append(e.Attributes, at)
		}
	}
}

func (r *reader) attributeValue(at *engine.Attribute, a attrRow, names rules.Names, drawn map[int]bool) bool {
	c, t := a.value, a.t
	if c.bad || c.blank() {
		return false // reported already
	}
	d, distErr := parseDist(c.text)
	if distErr == nil {
		at.Dist = d
		return true
	}
	// Only the attributes drawn before this one have values: hide the
	// others behind names no expression can write, keeping the indexes.
	earlier := names
	earlier.Attrs = make([]string, len(names.Attrs))
	for i, n := range names.Attrs {
		earlier.Attrs[i] = n
		if !drawn[i] {
			earlier.Attrs[i] = "\x00 not drawn yet " + strings.Repeat("\x00", 40)
		}
	}
	e, err := rules.Compile(c.text, rules.Number, earlier)
	if err != nil {
		switch {
		case callLike.MatchString(c.text) && !strings.ContainsAny(c.text, "<>=*/+?"):
			r.errorf(t.file, t.sheet, c.ref, "%s%s", distErr.Error(), commaHint(c.text, distErr))
		case compiles(c.text, names):
			r.errorCause(err, t.file, t.sheet, c.ref, "%s; expected only attributes listed above this one for the entity (they are drawn in order)", exprMessage(c.text, err))
		default:
			r.errorCause(err, t.file, t.sheet, c.ref, "%s", exprMessage(c.text, err))
		}
		return false
	}
	e.Cell = at.Cell
	if v, isConst := e.Const(); isConst {
		at.Expr = engine.Const(v)
	} else {
		at.Expr = e
	}
	return true
}

func compiles(src string, names rules.Names) bool {
	_, err := rules.Compile(src, rules.Number, names)
	return err == nil
}
