package lb

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/websim/websim/internal/numtext"
)

// WriteText prints the figures as plain text: the run, then a row per type
// and for all requests, then a row per server.
func (r *Report) WriteText(w io.Writer) error {
	p := r.Params
	fm := formatter{reps: r.Replications}
	var b strings.Builder
	reps := "1 replication"
	if r.Replications > 1 {
		reps = fmt.Sprintf("%d replications (mean ± 95%% confidence half-width)", r.Replications)
	}
	fmt.Fprintf(&b, "websim lb: %d servers, %s requests/s, %d requests, %s, seed %d, %s\n",
		p.Servers, strconv.FormatFloat(p.RequestsPerSec, 'g', -1, 64), p.Requests, p.Method, p.Seed, reps)
	fmt.Fprintf(&b, "simulated time %s s, observed arrival rate %s requests/s\n\n",
		fm.total(r.SimulatedTime, r.SimulatedTimeHalfWidth),
		fm.rate(r.All.Mean.ArrivalRate, r.All.HalfWidth.ArrivalRate))
	for _, o := range r.Overloads() {
		fmt.Fprintf(&b, "%s\n", o)
	}
	if len(r.Overloads()) > 0 {
		b.WriteString("\n")
	}

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "type\tcapacity per server\trequests\tshare\tfailed\twaited\twaited %\ttotal wait s\twait/service\tmean wait s\tp95 wait s\t")
	row := func(name, capacity string, e Estimate) {
		m, h := e.Mean, e.HalfWidth
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", name, capacity,
			fm.count(m.Requests, h.Requests), fm.percent(100*m.Share, 100*h.Share),
			fm.count(m.Failed, h.Failed), fm.count(m.Waited, h.Waited),
			fm.percent(m.WaitedPercent, h.WaitedPercent), fm.total(m.TotalWait, h.TotalWait),
			fm.percent(100*m.WaitShareOfService, 100*h.WaitShareOfService),
			fm.seconds(m.MeanWait, h.MeanWait), fm.seconds(m.P95Wait, h.P95Wait))
	}
	for j, t := range p.Types {
		row(t.Name, joinInts(r.Capacity[j]), r.ByType[j])
	}
	row("all", "", r.All)
	if err := tw.Flush(); err != nil {
		return err
	}

	b.WriteString("\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "server\trequests\twaited %\tmean wait s\t"
	for _, t := range p.Types {
		header += t.Name + " requests\t" + t.Name + " failed\t" + t.Name + " waited %\t"
	}
	fmt.Fprintln(tw, header)
	for i, e := range r.PerServer {
		line := fmt.Sprintf("%d\t%s\t%s\t%s\t", i, fm.count(e.Mean.Requests, e.HalfWidth.Requests),
			fm.percent(e.Mean.WaitedPercent, e.HalfWidth.WaitedPercent), fm.seconds(e.Mean.MeanWait, e.HalfWidth.MeanWait))
		for j := range p.Types {
			c := r.Cells[j][i]
			line += fm.count(c.Mean.Requests, c.HalfWidth.Requests) + "\t" + fm.count(c.Mean.Failed, c.HalfWidth.Failed) +
				"\t" + fm.percent(c.Mean.WaitedPercent, c.HalfWidth.WaitedPercent) + "\t"
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// formatter prints a figure, with its half-width when there are several
// replications.
type formatter struct{ reps int }

func (f formatter) with(v, hw float64, format string) string {
	s := fixed(format, v)
	if f.reps > 1 {
		s += " ± " + fixed(format, hw)
	}
	return s
}

// fixed is v in format (a fixed-point verb such as %.2f, maybe with %%
// after it), or in four significant digits with an exponent when v is so
// large that its digits would fill the line (1e300 seconds).
func fixed(format string, v float64) string {
	s, ok := numtext.Huge(v)
	if !ok {
		return fmt.Sprintf(format, v)
	}
	if strings.HasSuffix(format, "%%") {
		s += "%"
	}
	return s
}

func (f formatter) count(v, hw float64) string {
	if f.reps > 1 {
		return f.with(v, hw, "%.1f")
	}
	return f.with(v, hw, "%.0f")
}

func (f formatter) percent(v, hw float64) string { return f.with(v, hw, "%.2f%%") }
func (f formatter) seconds(v, hw float64) string { return f.with(v, hw, "%.4f") }
func (f formatter) total(v, hw float64) string   { return f.with(v, hw, "%.2f") }
func (f formatter) rate(v, hw float64) string    { return f.with(v, hw, "%.3f") }

// jsonFigures are the figures in websim's JSON (contract section 5).
type jsonFigures struct {
	Requests           float64 `json:"requests"`
	Failed             float64 `json:"failed"`
	Waited             float64 `json:"waited"`
	WaitedPercent      float64 `json:"waitedPercent"`
	TotalWait          float64 `json:"totalWait"`
	MeanWait           float64 `json:"meanWait"`
	WaitShareOfService float64 `json:"waitShareOfService"`
	P95Wait            float64 `json:"p95Wait"`
	Share              float64 `json:"share"`
	ArrivalRate        float64 `json:"arrivalRate"`
}

func toJSON(f Figures) jsonFigures {
	return jsonFigures{Requests: f.Requests, Failed: f.Failed, Waited: f.Waited, WaitedPercent: f.WaitedPercent,
		TotalWait: f.TotalWait, MeanWait: f.MeanWait, WaitShareOfService: f.WaitShareOfService,
		P95Wait: f.P95Wait, Share: f.Share, ArrivalRate: f.ArrivalRate}
}

type jsonType struct {
	jsonFigures
	Capacity               []int        `json:"capacity"`
	RequestsPerServer      []float64    `json:"requestsPerServer"`
	WaitedPercentPerServer []float64    `json:"waitedPercentPerServer"`
	CIHalfWidth95          *jsonFigures `json:"ciHalfWidth95,omitempty"`
}

type jsonReport struct {
	jsonFigures
	PerServer     []float64           `json:"perServer"`
	ByType        map[string]jsonType `json:"byType"`
	CIHalfWidth95 *jsonFigures        `json:"ciHalfWidth95,omitempty"`
	Servers       int                 `json:"servers"`
	RequestsPerS  float64             `json:"requestsPerSec"`
	Method        Method              `json:"method"`
	Seed          uint64              `json:"seed"`
	Replications  int                 `json:"replications"`
	SimulatedTime float64             `json:"simulatedTime"`
	// Overloaded lists the request types whose offered work is at least
	// their units (Report.Overloads), in words; [] when none is.
	Overloaded []jsonOverload `json:"overloaded"`
}

// jsonOverload is one Overload: server is null when the type's units over
// all servers are overloaded.
type jsonOverload struct {
	Type    string  `json:"type"`
	Server  *int    `json:"server"`
	Load    float64 `json:"load"`
	Units   int     `json:"units"`
	Message string  `json:"message"`
}

// WriteJSON prints the report as one JSON document: the figures of all
// requests at the top, perServer (requests per server) and byType, with
// ciHalfWidth95 (the same figures' 95% half-widths) when there are several
// replications. waitedPercent is a percentage; waitShareOfService and share
// are ratios; times are in seconds. Counts are means over the replications.
func (r *Report) WriteJSON(w io.Writer) error {
	ci := func(f Figures) *jsonFigures {
		if r.Replications < 2 {
			return nil
		}
		j := toJSON(f)
		return &j
	}
	doc := jsonReport{
		jsonFigures: toJSON(r.All.Mean), CIHalfWidth95: ci(r.All.HalfWidth), ByType: map[string]jsonType{},
		Servers: r.Params.Servers, RequestsPerS: r.Params.RequestsPerSec, Method: r.Params.Method,
		Seed: r.Params.Seed, Replications: r.Replications, SimulatedTime: r.SimulatedTime,
		Overloaded: []jsonOverload{},
	}
	for _, o := range r.Overloads() {
		jo := jsonOverload{Type: o.Type, Load: o.Load, Units: o.Units, Message: o.String()}
		if o.Server >= 0 {
			server := o.Server
			jo.Server = &server
		}
		doc.Overloaded = append(doc.Overloaded, jo)
	}
	for _, e := range r.PerServer {
		doc.PerServer = append(doc.PerServer, e.Mean.Requests)
	}
	for j, t := range r.Params.Types {
		jt := jsonType{jsonFigures: toJSON(r.ByType[j].Mean), Capacity: r.Capacity[j], CIHalfWidth95: ci(r.ByType[j].HalfWidth)}
		for _, c := range r.Cells[j] {
			jt.RequestsPerServer = append(jt.RequestsPerServer, c.Mean.Requests)
			jt.WaitedPercentPerServer = append(jt.WaitedPercentPerServer, c.Mean.WaitedPercent)
		}
		doc.ByType[t.Name] = jt
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
