package lb

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// loadYAML reads the original tool's parameter file.
func loadYAML(path string) (*Source, error) {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		// A pipe or a device (/dev/zero) may never end.
		return nil, Problems{problemAt(filepath.Base(path), "is not a regular file (a pipe, a device or a socket); expected the parameters as a YAML file")}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	src := newSource(path)
	name := filepath.Base(path)
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, Problems{yamlSyntaxProblem(name, data, err)}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, Problems{problemAt(name, "expected key: value lines ("+
			strings.Join(append(settingKeys[:4:4], KeyTypes), ", ")+")")}
	}
	src.where[""] = name
	at := func(n *yaml.Node) string { return name + ":" + strconv.Itoa(n.Line) }
	root := doc.Content[0]
	present := map[string]bool{}
	var unknown []found
	known := append(slices.Clone(settingKeys), KeyTypes)
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if present[k.Value] {
			src.fail(k.Value, at(k), fmt.Sprintf("%s is set twice (also at line %s)", k.Value, lineOf(src.where[k.Value])))
			continue
		}
		switch {
		case k.Value == KeyTypes:
			present[KeyTypes] = true
			src.where[KeyTypes] = at(k)
			src.readYAMLTypes(v, at)
		case slices.Contains(settingKeys, k.Value):
			present[k.Value] = true
			src.where[k.Value] = at(v)
			if v.Kind != yaml.ScalarNode {
				src.fail(k.Value, at(v), k.Value+" must be a single value")
			} else if msg := src.Params.set(k.Value, v.Value); msg != "" {
				src.fail(k.Value, at(v), k.Value+" "+msg)
			}
		default:
			unknown = append(unknown, found{k.Value, at(k)})
		}
	}
	if !present[KeySeed] {
		src.Params.Seed = defaultSeed
	}
	src.reconcile(unknown, present, known, append(settingKeys[:4:4], KeyTypes), "", name, "key", "", false)
	return src, nil
}

func (s *Source) readYAMLTypes(v *yaml.Node, at func(*yaml.Node) string) {
	if v.Kind != yaml.MappingNode {
		s.fail(KeyTypes, at(v), "types_of_requests must hold one entry per type (a name, then its "+
			strings.Join(typeKeys, ", ")+" indented under it)")
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, tv := v.Content[i], v.Content[i+1]
		t := RequestType{Name: k.Value}
		prefix := KeyTypes + "." + t.Name + "."
		s.where[KeyTypes+"."+t.Name] = at(k)
		if tv.Kind != yaml.MappingNode {
			s.fail(prefix+KeyProportion, at(tv), fmt.Sprintf("request type %q must hold %s indented under it",
				t.Name, strings.Join(typeKeys, ", ")))
			for _, key := range typeKeys {
				s.bad[prefix+key] = true
			}
			s.Params.Types = append(s.Params.Types, t)
			continue
		}
		present := map[string]bool{}
		var unknown []found
		for j := 0; j+1 < len(tv.Content); j += 2 {
			kk, vv := tv.Content[j], tv.Content[j+1]
			if !slices.Contains(typeKeys, kk.Value) {
				unknown = append(unknown, found{kk.Value, at(kk)})
				continue
			}
			if present[kk.Value] {
				s.fail(prefix+kk.Value, at(kk), fmt.Sprintf("%s %s is set twice (also at line %s)", t.Name, kk.Value, lineOf(s.where[prefix+kk.Value])))
				continue
			}
			present[kk.Value] = true
			s.where[prefix+kk.Value] = at(vv)
			if vv.Kind != yaml.ScalarNode {
				s.fail(prefix+kk.Value, at(vv), t.Name+" "+kk.Value+" must be a single value")
			} else if msg := t.set(kk.Value, vv.Value); msg != "" {
				s.fail(prefix+kk.Value, at(vv), t.Name+" "+kk.Value+" "+msg)
			}
		}
		s.reconcile(unknown, present, typeKeys, typeKeys, prefix, at(k), "key", " in "+t.Name, false)
		s.Params.Types = append(s.Params.Types, t)
	}
}

// lineOf returns the line number of a "file:line" location.
func lineOf(where string) string { return where[strings.LastIndex(where, ":")+1:] }

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlSyntaxProblem locates a YAML syntax error at its line, with a hint for
// the indentation of the original tool's README example.
func yamlSyntaxProblem(name string, data []byte, err error) Problem {
	msg := err.Error()
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return problemAt(name, "not valid YAML: "+strings.TrimPrefix(msg, "yaml: "))
	}
	line, _ := strconv.Atoi(m[1])
	what := "not valid YAML: " + m[2]
	lines := strings.Split(string(data), "\n")
	for _, l := range lines[max(0, line-2):min(len(lines), line+1)] {
		trimmed := strings.TrimLeft(l, " \t")
		if len(trimmed) < len(l) && strings.HasPrefix(trimmed, KeyTypes+":") {
			what += "; Try: start types_of_requests: at the beginning of its line, not indented under method"
			break
		}
	}
	return problemAt(name+":"+m[1], what)
}
