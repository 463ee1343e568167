package cluster

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// The types below mirror the fields of the Kubernetes API objects the
// manifest uses, named as in the API reference (core/v1 ConfigMap and
// PersistentVolumeClaim, batch/v1 Job). Decoding with KnownFields refuses
// any field they do not have, and typed fields refuse a value of the wrong
// kind (a quoted number where an integer belongs), as the API server does.
// They are kept here, apart from the template, so that a misspelt field in
// the template cannot pass by being misspelt in both places.

type objectMeta struct {
	Name        string            `yaml:"name"`
	Namespace   string            `yaml:"namespace"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

type typeMeta struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
}

type configMap struct {
	typeMeta   `yaml:",inline"`
	Metadata   objectMeta        `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`
	BinaryData map[string]string `yaml:"binaryData"`
	Immutable  *bool             `yaml:"immutable"`
}

type resources struct {
	Requests map[string]string `yaml:"requests"`
	Limits   map[string]string `yaml:"limits"`
}

type pvc struct {
	typeMeta `yaml:",inline"`
	Metadata objectMeta `yaml:"metadata"`
	Spec     struct {
		AccessModes      []string  `yaml:"accessModes"`
		Resources        resources `yaml:"resources"`
		StorageClassName *string   `yaml:"storageClassName"`
		VolumeMode       *string   `yaml:"volumeMode"`
	} `yaml:"spec"`
}

type envVar struct {
	Name      string `yaml:"name"`
	Value     string `yaml:"value"`
	ValueFrom *struct {
		FieldRef *struct {
			APIVersion string `yaml:"apiVersion"`
			FieldPath  string `yaml:"fieldPath"`
		} `yaml:"fieldRef"`
	} `yaml:"valueFrom"`
}

type volumeMount struct {
	Name      string `yaml:"name"`
	MountPath string `yaml:"mountPath"`
	ReadOnly  bool   `yaml:"readOnly"`
	SubPath   string `yaml:"subPath"`
}

type container struct {
	Name         string        `yaml:"name"`
	Image        string        `yaml:"image"`
	Command      []string      `yaml:"command"`
	Args         []string      `yaml:"args"`
	WorkingDir   string        `yaml:"workingDir"`
	Env          []envVar      `yaml:"env"`
	Resources    resources     `yaml:"resources"`
	VolumeMounts []volumeMount `yaml:"volumeMounts"`
}

type volume struct {
	Name      string `yaml:"name"`
	ConfigMap *struct {
		Name  string `yaml:"name"`
		Items []struct {
			Key  string `yaml:"key"`
			Path string `yaml:"path"`
		} `yaml:"items"`
	} `yaml:"configMap"`
	PersistentVolumeClaim *struct {
		ClaimName string `yaml:"claimName"`
		ReadOnly  bool   `yaml:"readOnly"`
	} `yaml:"persistentVolumeClaim"`
}

type job struct {
	typeMeta `yaml:",inline"`
	Metadata objectMeta `yaml:"metadata"`
	Spec     struct {
		CompletionMode          string `yaml:"completionMode"`
		Completions             *int32 `yaml:"completions"`
		Parallelism             *int32 `yaml:"parallelism"`
		BackoffLimit            *int32 `yaml:"backoffLimit"`
		BackoffLimitPerIndex    *int32 `yaml:"backoffLimitPerIndex"`
		ActiveDeadlineSeconds   *int64 `yaml:"activeDeadlineSeconds"`
		TTLSecondsAfterFinished *int32 `yaml:"ttlSecondsAfterFinished"`
		Template                struct {
			Metadata objectMeta `yaml:"metadata"`
			Spec     struct {
				RestartPolicy  string      `yaml:"restartPolicy"`
				InitContainers []container `yaml:"initContainers"`
				Containers     []container `yaml:"containers"`
				Volumes        []volume    `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// manifest is a decoded manifest, by kind.
type manifest struct {
	configMaps map[string]*configMap
	pvcs       map[string]*pvc
	jobs       []*job
	// existing are claims that exist in the cluster already (--model-pvc),
	// which a volume may name though the manifest does not hold them.
	existing map[string]bool
}

var dns1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// decodeStrict reads every YAML document of text into its API type,
// refusing unknown fields and kinds.
func decodeStrict(text []byte) (*manifest, error) {
	m := &manifest{configMaps: map[string]*configMap{}, pvcs: map[string]*pvc{}}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	for i := 1; ; i++ {
		var node yaml.Node
		if err := dec.Decode(&node); errors.Is(err, io.EOF) {
			return m, nil
		} else if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		var tm typeMeta
		if err := node.Decode(&tm); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		strict := func(v any) error {
			var buf bytes.Buffer
			enc := yaml.NewEncoder(&buf)
			if err := enc.Encode(&node); err != nil {
				return err
			}
			d := yaml.NewDecoder(&buf)
			d.KnownFields(true)
			return d.Decode(v)
		}
		var name string
		var err error
		switch tm.APIVersion + " " + tm.Kind {
		case "v1 ConfigMap":
			var c configMap
			err, name = strict(&c), c.Metadata.Name
			m.configMaps[name] = &c
		case "v1 PersistentVolumeClaim":
			var p pvc
			err, name = strict(&p), p.Metadata.Name
			m.pvcs[name] = &p
		case "batch/v1 Job":
			var j job
			err, name = strict(&j), j.Metadata.Name
			m.jobs = append(m.jobs, &j)
		default:
			return nil, fmt.Errorf("document %d: unknown kind %q %q", i, tm.APIVersion, tm.Kind)
		}
		if err != nil {
			return nil, fmt.Errorf("document %d (%s): %w", i, tm.Kind, err)
		}
		if len(name) > 63 || !dns1123Label.MatchString(name) {
			return nil, fmt.Errorf("document %d (%s): name %q is not a DNS-1123 label", i, tm.Kind, name)
		}
	}
}

// checkPod checks that the pod's mounts name its volumes and that its
// volumes name objects of the manifest.
func (m *manifest) checkPod(j *job) error {
	spec := &j.Spec.Template.Spec
	if spec.RestartPolicy != "Never" && spec.RestartPolicy != "OnFailure" {
		return fmt.Errorf("%s: restartPolicy %q; a Job needs Never or OnFailure", j.Metadata.Name, spec.RestartPolicy)
	}
	if len(spec.Containers) == 0 {
		return fmt.Errorf("%s: no container", j.Metadata.Name)
	}
	vols := map[string]bool{}
	for _, v := range spec.Volumes {
		vols[v.Name] = true
		switch {
		case v.ConfigMap != nil:
			cm := m.configMaps[v.ConfigMap.Name]
			if cm == nil {
				return fmt.Errorf("%s: volume %s: no ConfigMap %s", j.Metadata.Name, v.Name, v.ConfigMap.Name)
			}
			for _, it := range v.ConfigMap.Items {
				if _, ok := cm.BinaryData[it.Key]; !ok {
					return fmt.Errorf("%s: volume %s: ConfigMap %s has no key %s", j.Metadata.Name, v.Name, cm.Metadata.Name, it.Key)
				}
			}
		case v.PersistentVolumeClaim != nil:
			if m.pvcs[v.PersistentVolumeClaim.ClaimName] == nil && !m.existing[v.PersistentVolumeClaim.ClaimName] {
				return fmt.Errorf("%s: volume %s: no PersistentVolumeClaim %s", j.Metadata.Name, v.Name, v.PersistentVolumeClaim.ClaimName)
			}
		default:
			return fmt.Errorf("%s: volume %s has no source", j.Metadata.Name, v.Name)
		}
	}
	for _, c := range spec.Containers {
		if c.Name == "" || c.Image == "" || len(c.Command) == 0 {
			return fmt.Errorf("%s: container %q lacks a name, image or command", j.Metadata.Name, c.Name)
		}
		for _, vm := range c.VolumeMounts {
			if !vols[vm.Name] || !strings.HasPrefix(vm.MountPath, "/") {
				return fmt.Errorf("%s: container %s mounts %s at %q", j.Metadata.Name, c.Name, vm.Name, vm.MountPath)
			}
		}
	}
	return nil
}

func TestKubernetesManifest(t *testing.T) {
	svc, proc := []byte("svc workbook bytes"), []byte("proc workbook bytes")
	kj := KubernetesJob{Job: sampleJob, Image: "websim:test", Parallelism: 2,
		Files: []File{{Name: "SvcData.xlsx", Data: svc}, {Name: "ProcData.xlsx", Data: proc}}}
	var b bytes.Buffer
	if err := Kubernetes(&b, kj); err != nil {
		t.Fatal(err)
	}
	golden(t, "k8s.golden", b.Bytes())
	m, err := decodeStrict(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	cm := m.configMaps["websim-asum-model"]
	if cm == nil || len(m.pvcs) != 1 || len(m.jobs) != 2 {
		t.Fatalf("want a ConfigMap websim-asum-model, a PVC and two Jobs; got %d ConfigMaps, %d PVCs, %d Jobs", len(m.configMaps), len(m.pvcs), len(m.jobs))
	}
	for name, want := range map[string][]byte{"SvcData.xlsx": svc, "ProcData.xlsx": proc} {
		got, err := base64.StdEncoding.DecodeString(cm.BinaryData[name])
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("ConfigMap %s: %q (%v), want %q", name, got, err, want)
		}
	}
	for _, p := range m.pvcs {
		if !slices.Equal(p.Spec.AccessModes, []string{"ReadWriteMany"}) || p.Spec.Resources.Requests["storage"] != "1Gi" {
			t.Errorf("PVC: access %v, storage %q; shards on several nodes need ReadWriteMany", p.Spec.AccessModes, p.Spec.Resources.Requests["storage"])
		}
	}
	shards, merge := m.jobs[0], m.jobs[1]
	for _, j := range m.jobs {
		if err := m.checkPod(j); err != nil {
			t.Error(err)
		}
	}
	s := shards.Spec
	if s.CompletionMode != "Indexed" || s.Completions == nil || *s.Completions != 4 || s.Parallelism == nil || *s.Parallelism != 2 {
		t.Errorf("shards Job: completionMode %q, completions %v, parallelism %v; want Indexed, 4, 2", s.CompletionMode, s.Completions, s.Parallelism)
	}
	c := s.Template.Spec.Containers[0]
	args := strings.Join(c.Args, " ")
	study := studyToken.FindStringSubmatch(args)
	if want := "websim run /models/asum --observations 3000 --loads L1,L5 --shard auto --shards 4 --jobs 1 --quiet --partial /parts/part-"; len(c.Command) != 2 || c.Command[0] != "/bin/sh" || !strings.HasPrefix(args, want) || study == nil {
		t.Fatalf("shard command %q args %q, want /bin/sh -c and a script that starts %q and writes part-TOKEN-$(JOB_COMPLETION_INDEX).wsp", c.Command, args, want)
	}
	if len(c.Env) != 1 || c.Env[0].Name != "JOB_COMPLETION_INDEX" || c.Env[0].ValueFrom == nil || c.Env[0].ValueFrom.FieldRef == nil ||
		c.Env[0].ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("shard env %+v: want JOB_COMPLETION_INDEX from the completion-index annotation, declared so that $(JOB_COMPLETION_INDEX) expands in args", c.Env)
	}
	mounts := map[string]volumeMount{}
	for _, vm := range c.VolumeMounts {
		mounts[vm.Name] = vm
	}
	if mounts["model"].MountPath != "/models/asum" || !mounts["model"].ReadOnly || mounts["parts"].MountPath != "/parts" {
		t.Errorf("shard mounts %+v", c.VolumeMounts)
	}
	mc := merge.Spec.Template.Spec.Containers[0]
	script := strings.Join(mc.Args, "\n")
	// The merge takes this study's parts only, and its log is the JSON
	// alone (the warnings go to a file on the volume).
	if merge.Spec.CompletionMode != "" || !strings.Contains(script, `-ge "$n"`) || !strings.Contains(script, "n=4\n") ||
		!strings.Contains(script, "websim merge --json --out /parts/OutPut.xlsx /parts/part-"+study[1]+"-*.wsp 2>/parts/merge.log") {
		t.Errorf("merge Job script:\n%s", script)
	}
}

// studyToken finds the study's token in a shard's part name.
var studyToken = regexp.MustCompile(`part-([0-9a-f]{10})-\$\(JOB_COMPLETION_INDEX\)\.wsp`)

// With --model-pvc the model is read from an existing claim, mounted
// read-only at /models: no ConfigMap, and the shards run /models/asum.
func TestKubernetesManifestModelOnAClaim(t *testing.T) {
	kj := KubernetesJob{Job: sampleJob, Image: "websim:test", ModelPVC: "websim-models",
		Files: []File{{Name: "SvcData.xlsx", Data: []byte("unused")}}}
	var b bytes.Buffer
	if err := Kubernetes(&b, kj); err != nil {
		t.Fatal(err)
	}
	golden(t, "k8s-model-pvc.golden", b.Bytes())
	m, err := decodeStrict(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(m.configMaps) != 0 || len(m.pvcs) != 1 || len(m.jobs) != 2 {
		t.Fatalf("want no ConfigMap, the parts' PVC and two Jobs; got %d, %d, %d", len(m.configMaps), len(m.pvcs), len(m.jobs))
	}
	if err := m.checkPod(m.jobs[0]); err == nil || !strings.Contains(err.Error(), "no PersistentVolumeClaim websim-models") {
		t.Errorf("the model's claim is not in the manifest, so the check must see it: %v", err)
	}
	m.existing = map[string]bool{"websim-models": true}
	for _, j := range m.jobs {
		if err := m.checkPod(j); err != nil {
			t.Error(err)
		}
	}
	spec := m.jobs[0].Spec.Template.Spec
	var claim *volume
	for i, v := range spec.Volumes {
		if v.Name == "model" {
			claim = &spec.Volumes[i]
		}
	}
	if claim == nil || claim.PersistentVolumeClaim == nil || claim.PersistentVolumeClaim.ClaimName != "websim-models" || !claim.PersistentVolumeClaim.ReadOnly {
		t.Errorf("model volume %+v, want the claim websim-models, read-only", claim)
	}
	c := spec.Containers[0]
	for _, vm := range c.VolumeMounts {
		if vm.Name == "model" && (vm.MountPath != "/models" || !vm.ReadOnly) {
			t.Errorf("model mount %+v, want /models read-only", vm)
		}
	}
	if !strings.HasPrefix(strings.Join(c.Args, " "), "websim run /models/asum ") {
		t.Errorf("shard args %q, want websim run /models/asum ...", c.Args)
	}
}

// TestStrictDecodingBites checks that the strict check refuses what the
// API server would: an unknown field, a quoted integer, a dangling
// reference.
func TestStrictDecodingBites(t *testing.T) {
	var b bytes.Buffer
	kj := KubernetesJob{Job: sampleJob, Image: "websim:test", Files: []File{{Name: "SvcData.xlsx", Data: []byte("x")}, {Name: "ProcData.xlsx", Data: []byte("y")}}}
	if err := Kubernetes(&b, kj); err != nil {
		t.Fatal(err)
	}
	good := b.String()
	for name, edit := range map[string][2]string{
		"unknown field":  {"completionMode: Indexed", "completionMode: Indexed\n  completionsMode: Indexed"},
		"quoted integer": {"completions: 4", `completions: "4"`},
		"misspelt mount": {"mountPath: /parts", "mountpath: /parts"},
		"bad name":       {"name: websim-asum-shards", "name: Websim_asum"},
		"dangling claim": {"claimName: websim-asum-parts\n---", "claimName: websim-asum-partz\n---"},
		"missing key":    {`- key: "SvcData.xlsx"`, `- key: "SvcData.xls"`},
		"restart policy": {"restartPolicy: Never\n      containers:\n      - name: shard", "restartPolicy: Always\n      containers:\n      - name: shard"},
		"unknown kind":   {"kind: PersistentVolumeClaim", "kind: PersistentVolume"},
	} {
		bad := strings.Replace(good, edit[0], edit[1], 1)
		if bad == good {
			t.Fatalf("%s: the edit %q does not apply", name, edit[0])
		}
		m, err := decodeStrict([]byte(bad))
		if err == nil {
			for _, j := range m.jobs {
				if err = m.checkPod(j); err != nil {
					break
				}
			}
		}
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A shard that fails counts its failure on the parts' volume, and the
// merge gives up once more pods have failed than the shards' Job allows
// (its backoffLimit), instead of waiting out its deadline: the scripts
// run here with sh, as Kubernetes hands them over ($(VAR) expanded, $$ a $).
func TestKubernetesMergeGivesUpOnFailedShards(t *testing.T) {
	dir := t.TempDir()
	job := sampleJob
	job.Websim = "false" // every shard fails
	var b bytes.Buffer
	if err := Kubernetes(&b, KubernetesJob{Job: job, Image: "websim:test", Files: []File{{Name: "SvcData.xlsx", Data: []byte("x")}}}); err != nil {
		t.Fatal(err)
	}
	m, err := decodeStrict(b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	study := studyToken.FindStringSubmatch(strings.Join(m.jobs[0].Spec.Template.Spec.Containers[0].Args, "\n"))
	if study == nil {
		t.Fatal("no study token in the shards' part names")
	}
	name := func(s string) string { return strings.Replace(s, "-", "-"+study[1]+"-", 1) } // part-0.wsp: part-TOKEN-0.wsp
	script := func(j int, index string) string {
		s := strings.Join(m.jobs[j].Spec.Template.Spec.Containers[0].Args, "\n")
		s = strings.ReplaceAll(s, "$(JOB_COMPLETION_INDEX)", index)
		if j == 0 {
			s = strings.ReplaceAll(s, "$$", "$")
		}
		return strings.ReplaceAll(s, "/parts", dir)
	}
	sh := func(s string) (string, error) {
		out, err := exec.Command("/bin/sh", "-c", s).CombinedOutput()
		return string(out), err
	}
	// One failure, retried: the merge waits for every part (it must not
	// start on the parts there so far).
	if _, err := sh(script(0, "2")); err == nil {
		t.Fatal("a failing shard's script ended with 0")
	}
	if err := os.WriteFile(filepath.Join(dir, name("part-0.wsp")), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wait := strings.ReplaceAll(script(1, ""), "sleep 10", "sleep 0.1") // many rounds in the test's time
	waiting := exec.Command("/bin/sh", "-c", strings.ReplaceAll(wait, "exec false merge", "echo merged; exit 0; false merge"))
	if err := waiting.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- waiting.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("the merge did not wait for the 4 parts after one failure: %v", err)
	case <-time.After(2 * time.Second):
		waiting.Process.Kill()
		<-exited
	}
	os.Remove(filepath.Join(dir, name("part-0.wsp")))
	os.Remove(filepath.Join(dir, name("failed-2")))
	// Five failed pods over two indexes: more than the backoffLimit of 4.
	for _, index := range []string{"1", "1", "1", "2", "2"} {
		if _, err := sh(script(0, index)); err == nil {
			t.Fatal("a failing shard's script ended with 0")
		}
	}
	if got, _ := os.ReadFile(filepath.Join(dir, name("failed-1"))); strings.TrimSpace(string(got)) != "3" {
		t.Errorf("failed-1 holds %q, want 3", got)
	}
	// A count being written (empty, or the temporary beside it) does not
	// break the merge's sum.
	for _, n := range []string{"failed-3", "failed-0.123"} {
		if err := os.WriteFile(filepath.Join(dir, name(n)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	var out string
	go func() { out, err = sh(script(1, "")); close(done) }()
	select {
	case <-done:
		if err == nil || !strings.Contains(out, "the shards' Job failed (5 failed pods") {
			t.Errorf("merge: %v\n%s", err, out)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the merge kept waiting after the shards' Job failed")
	}
}

// Each study names its parts with a token of its own: a manifest written
// again for the same study finds its parts, and parts another study left
// on the volume (another model, other flags, another count of shards) are
// passed over by the merge rather than taken whole.
func TestKubernetesPartsCarryTheStudy(t *testing.T) {
	token := func(change func(*KubernetesJob)) string {
		j := KubernetesJob{Job: sampleJob, Image: "websim:test", Files: []File{{Name: "SvcData.xlsx", Data: []byte("x")}}}
		j.RunFlags = slices.Clone(j.RunFlags)
		change(&j)
		var b bytes.Buffer
		if err := Kubernetes(&b, j); err != nil {
			t.Fatal(err)
		}
		m := studyToken.FindStringSubmatch(b.String())
		if m == nil {
			t.Fatal("no study token in the manifest")
		}
		return m[1]
	}
	same := token(func(*KubernetesJob) {})
	if again := token(func(*KubernetesJob) {}); again != same {
		t.Errorf("the same study twice: tokens %s and %s", same, again)
	}
	for what, change := range map[string]func(*KubernetesJob){
		"other observations": func(j *KubernetesJob) { j.RunFlags[1] = "5000" },
		"another model":      func(j *KubernetesJob) { j.Files[0].Data = []byte("y") },
		"more shards":        func(j *KubernetesJob) { j.Shards = 5 },
	} {
		if got := token(change); got == same {
			t.Errorf("%s: the same token %s as the study before", what, got)
		}
	}
}
