package lb

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files and samples/loadbalancer/Parameters.xlsx")

const (
	sampleYAML     = "../samples/loadbalancer/sample1.yaml"
	sampleWorkbook = "../samples/loadbalancer/Parameters.xlsx"
)

func load(t *testing.T, path string) *Source {
	t.Helper()
	src, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Check(); err != nil {
		t.Fatal(err)
	}
	if src.Workbook != nil {
		t.Cleanup(func() { src.Workbook.Close() })
	}
	return src
}

func TestSampleYAMLIsTheSeed(t *testing.T) {
	if got := load(t, sampleYAML).Params; !reflect.DeepEqual(got, Sample()) {
		t.Errorf("sample1.yaml reads as %+v, want %+v", got, Sample())
	}
}

// readme-example.yaml is the seed README's example: sample1.yaml with
// deviations 1.5 and 0.25.
func TestReadmeExampleYAML(t *testing.T) {
	if got := load(t, "../samples/loadbalancer/readme-example.yaml").Params; !reflect.DeepEqual(got, ReadmeExample()) {
		t.Errorf("readme-example.yaml reads as %+v, want %+v", got, ReadmeExample())
	}
	if Sample().Types[0].DeviationServiceTimeSecs != 2.5 || Sample().Types[1].DeviationServiceTimeSecs != 0.15 {
		t.Errorf("Sample() is not the original's tests/sample1.yaml (deviations 2.5 and 0.15): %+v", Sample().Types)
	}
}

// The committed workbook twin reads back to the same parameters as
// sample1.yaml; go test ./lb -update writes it anew.
func TestSampleWorkbookIsTheTwin(t *testing.T) {
	if *update {
		f, err := NewParametersWorkbook(Sample())
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Save(sampleWorkbook); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := load(t, sampleWorkbook).Params, load(t, sampleYAML).Params; !reflect.DeepEqual(got, want) {
		t.Errorf("Parameters.xlsx reads as %+v, want %+v", got, want)
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const goodYAML = `number_of_servers: 6
number_of_requests_per_sec: 30
number_of_requests: 50000
method: roundrobin
types_of_requests:
  dma:
    output_capacity: 20
    proportion: 0.05
    avg_service_time_secs: 4.5
    deviation_service_time_secs: 1.5
  other:
    output_capacity: 60
    proportion: 0.95
    avg_service_time_secs: 1.15
    deviation_service_time_secs: 0.25
`

// problems returns the problems of a YAML text, one a line.
func problemsOf(t *testing.T, text string, overrides ...string) string {
	t.Helper()
	src, err := Load(writeFile(t, "p.yaml", text))
	if err == nil {
		for i := 0; i+1 < len(overrides); i += 2 {
			src.Override(overrides[i], overrides[i+1])
		}
		err = src.Check()
	}
	if err == nil {
		return ""
	}
	if _, ok := err.(Problems); !ok {
		t.Fatalf("error %T is not Problems: %v", err, err)
	}
	return err.Error()
}

func TestYAMLProblems(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(goodYAML, old) {
			t.Fatalf("%q not in the YAML", old)
		}
		return strings.Replace(goodYAML, old, new, 1)
	}
	tests := []struct {
		name, text string
		overrides  []string
		want       []string // each a line of the problems, in order
	}{
		{"good", goodYAML, nil, nil},
		{"misspelt key", edit("number_of_servers:", "number_of_server:"), nil,
			[]string{`p.yaml:1: unknown key "number_of_server"; did you mean "number_of_servers"?`}},
		{"missing key", edit("number_of_requests: 50000\n", ""), nil,
			[]string{`p.yaml: missing key "number_of_requests"`}},
		{"misspelt type key", edit("avg_service_time_secs: 4.5", "avg_service_time: 4.5"), nil,
			[]string{`p.yaml:9: unknown key "avg_service_time" in dma; did you mean "avg_service_time_secs"?`}},
		{"unknown key far from any", edit("method: roundrobin", "method: roundrobin\ncolour: blue"), nil,
			[]string{`p.yaml:5: unknown key "colour"; expected one of number_of_servers`}},
		{"proportions", edit("proportion: 0.95", "proportion: 0.9"), nil,
			[]string{`p.yaml:5: the proportions add up to 0.95; they must add up to 1`}},
		{"proportions within 1e-9", edit("proportion: 0.95", "proportion: 0.9500000000001"), nil, nil},
		{"zero rate", edit("number_of_requests_per_sec: 30", "number_of_requests_per_sec: 0"), nil,
			[]string{`p.yaml:2: number_of_requests_per_sec must be a rate above 0 requests per second, got 0`}},
		{"negative capacity", edit("output_capacity: 60", "output_capacity: -1"), nil,
			[]string{`p.yaml:12: other output_capacity must be at least 1 unit, got -1`}},
		{"zero servers", edit("number_of_servers: 6", "number_of_servers: 0"), nil,
			[]string{`p.yaml:1: number_of_servers must be at least 1 server, got 0`}},
		{"unknown method", edit("method: roundrobin", "method: busy"), nil,
			[]string{`p.yaml:4: method "busy" is unknown`}},
		{"not a number", edit("number_of_servers: 6", "number_of_servers: six"), nil,
			[]string{`p.yaml:1: number_of_servers "six" is not a whole number`}},
		{"fraction of a server", edit("number_of_servers: 6", "number_of_servers: 2.5"), nil,
			[]string{`p.yaml:1: number_of_servers "2.5" is not a whole number`}},
		{"fractional rate is fine", edit("number_of_requests_per_sec: 30", "number_of_requests_per_sec: 2.5"), nil, nil},
		{"the seed's indentation", edit("types_of_requests:", "    types_of_requests:"), nil,
			[]string{`p.yaml:5: not valid YAML: mapping values are not allowed in this context; Try: start types_of_requests: at the beginning of its line`}},
		{"bad flag", goodYAML, []string{KeyServers, "0", KeyMethod, "fastest"},
			[]string{`--number_of_servers: number_of_servers must be at least 1 server, got 0`, `--method: method "fastest" is unknown; expected roundrobin or busyness`}},
		{"flag fixes the file", edit("number_of_servers: 6", "number_of_servers: 0"), []string{KeyServers, "4"}, nil},
		{"set twice", edit("number_of_servers: 6", "number_of_servers: 0\nnumber_of_servers: 0"), nil,
			[]string{`p.yaml:2: number_of_servers is set twice (also at line 1)`}},
		{"several", edit("method: roundrobin", "method: x\nseed: -1"), []string{KeyRate, "-2"},
			[]string{`p.yaml:4: method "x" is unknown`, `p.yaml:5: seed "-1" is not a seed`, `--number_of_requests_per_sec: number_of_requests_per_sec must be a rate above 0`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := problemsOf(t, tt.text, tt.overrides...)
			lines := strings.Split(got, "\n")
			if got == "" {
				lines = nil
			}
			if len(lines) != len(tt.want) {
				t.Fatalf("problems:\n%s\nwant %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("problem %d:\n %s\nwant it to start\n %s", i, lines[i], w)
				}
			}
		})
	}
}

func TestMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if _, ok := err.(Problems); !ok || !strings.Contains(err.Error(), "nope.yaml: no such file") {
		t.Errorf("error %v", err)
	}
}

func TestValidateNamesKeys(t *testing.T) {
	p := Sample()
	p.Types[1].Proportion = 0.5
	p.Types[0].DeviationServiceTimeSecs = -1
	err := p.Validate()
	if err == nil || !strings.Contains(err.Error(), "types_of_requests.dma.deviation_service_time_secs: must be 0 seconds or more") ||
		!strings.Contains(err.Error(), "add up to 0.55") {
		t.Errorf("Validate: %v", err)
	}
	if _, err := Run(p, 1); err == nil {
		t.Error("Run accepted invalid parameters")
	}
}

func TestHugeSizesAreInputProblems(t *testing.T) {
	p := Sample()
	p.Servers = 1_000_000_000_000
	p.Types[0].OutputCapacity = 1 << 40
	err := p.Validate()
	if err == nil || !strings.Contains(err.Error(), "at most 100000 servers") || !strings.Contains(err.Error(), "at most 10000000 units") {
		t.Errorf("err = %v", err)
	}
}
