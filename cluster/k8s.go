package cluster

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"regexp"
	"strings"
	"text/template"
)

// File is one of the model's workbooks, for the ConfigMap.
type File struct {
	Name string
	Data []byte
}

// KubernetesJob adds what a Kubernetes manifest needs to a Job.
type KubernetesJob struct {
	Job
	// Files are the model's workbooks, carried in a ConfigMap.
	Files []File
	// Image is the container image, which must hold websim (on its PATH,
	// or at Job.Websim) and /bin/sh (the merge waits in a shell loop).
	Image string
	// Parallelism is how many shards run at once; default all.
	Parallelism int
	// Storage is the size asked for the parts' volume; default 1Gi.
	// StorageClass, when set, is its storage class: one that gives
	// ReadWriteMany volumes (many clusters' default class does not, and
	// the claim would never be bound).
	Storage      string
	StorageClass string
	// ModelPVC, when set, names an existing PersistentVolumeClaim that
	// holds the model instead of a ConfigMap (for a model too big for
	// one): the claim is mounted read-only at /models, so the model folder
	// must stand at its top under the model's name (/models/asum holding
	// SvcData.xlsx and ProcData.xlsx). Files are not used then.
	ModelPVC string
}

// maxConfigMap bounds the workbooks a ConfigMap may carry: Kubernetes
// refuses objects above 1 MiB, and base64 makes the bytes a third larger.
const maxConfigMap = 700 << 10

// Kubernetes writes one manifest (four YAML documents) for
// `kubectl apply -f`: a ConfigMap holding the model's workbooks, a
// PersistentVolumeClaim (ReadWriteMany) for the parts, an Indexed Job of
// j.Shards completions running one shard each, and a merge Job that waits
// until every part is there, merges them into the workbook on the volume
// and prints the JSON (kubectl logs job/NAME-merge).
//
// The model comes from a ConfigMap rather than a volume: the manifest is
// then whole (nothing to copy into the cluster first) and every pod reads
// the same bytes, which the merge checks by their hashes. A model too big
// for a ConfigMap is refused with the advice to put it on a claim and name
// it in ModelPVC; the manifest then has no ConfigMap.
func Kubernetes(w io.Writer, j KubernetesJob) error {
	job, err := j.Job.withDefaults()
	if err != nil {
		return err
	}
	j.Job = job
	if j.Image == "" {
		return fmt.Errorf("%w: no container image (--image)", ErrJob)
	}
	if j.Parallelism < 1 || j.Parallelism > j.Shards {
		j.Parallelism = j.Shards
	}
	if j.Storage == "" {
		j.Storage = "1Gi"
	}
	size := 0
	files := map[string]string{}
	if j.ModelPVC != "" {
		if !validDNSName(j.ModelPVC) {
			return fmt.Errorf("%w: --model-pvc %q: expected the name of a PersistentVolumeClaim (lower-case letters, digits, '-' and '.')", ErrJob, j.ModelPVC)
		}
		j.Files = nil
	} else {
		for _, f := range j.Files {
			size += len(f.Data)
			files[f.Name] = base64.StdEncoding.EncodeToString(f.Data)
		}
		if len(files) == 0 {
			return fmt.Errorf("%w: no model workbooks for the ConfigMap", ErrJob)
		}
	}
	if size > maxConfigMap {
		return fmt.Errorf("%w: the model's workbooks are %d KiB, more than a ConfigMap carries (about %d KiB); copy the model folder to the top of a PersistentVolumeClaim (as %s/) and give its name with --model-pvc NAME", ErrJob, size>>10, maxConfigMap>>10, j.name())
	}
	name := dnsLabel("websim-"+j.name(), 50)
	modelDir := path.Join("/models", j.name())
	const partsDir = "/parts"
	if j.StorageClass != "" && !validDNSName(j.StorageClass) {
		return fmt.Errorf("%w: --storage-class %q: expected the name of a StorageClass (lower-case letters, digits, '-' and '.')", ErrJob, j.StorageClass)
	}
	run := append([]string{j.Websim, "run", modelDir}, j.RunFlags...)
	run = append(run, "--shard", "auto", "--shards", fmt.Sprint(j.Shards), "--jobs", fmt.Sprint(j.CPUs), "--quiet")
	// A shard that fails counts its failure on the volume, so that the
	// merge gives up once the shards' Job has (more failed pods than its
	// backoffLimit) rather than wait out its deadline. Kubernetes expands
	// $(JOB_COMPLETION_INDEX) in the arguments; $$ is a $ for the shell.
	// The count is written beside and moved into place, so that the merge
	// never reads a file half written.
	// The parts and failure counts carry the study's token: parts an
	// earlier study left on the volume (its Jobs deleted, the claim kept)
	// are not this study's, and the merge would otherwise take a whole
	// set of them at once, before any new shard had run.
	study := j.token()
	shard := fmt.Sprintf(`%s --partial %s/part-%s-$(JOB_COMPLETION_INDEX).wsp || { status=$$?; f=%s/failed-%s-$(JOB_COMPLETION_INDEX); n=$$(cat "$$f" 2>/dev/null); echo $$(( $${n:-0} + 1 )) > "$$f.$$$$"; mv "$$f.$$$$" "$$f"; exit $$status; }`,
		shellWords(run), partsDir, study, partsDir, study)
	// The merge's warnings go to a file on the volume, so that its log
	// (kubectl logs job/NAME-merge > OutPut.json) is the JSON alone; on a
	// failure they go to the log too.
	merge := fmt.Sprintf(`set -e
n=%d
until [ "$(ls %s/part-%s-*.wsp 2>/dev/null | wc -l)" -ge "$n" ]; do
  failed=0
  for f in %s/failed-%s-[0-9]*; do
    case "${f##*/}" in *.*) continue ;; esac
    c=$(cat "$f" 2>/dev/null || true); failed=$((failed + ${c:-0}))
  done
  if [ "$failed" -gt %d ]; then
    echo "the shards' Job failed ($failed failed pods; see kubectl logs job/%s-shards): nothing to merge" >&2
    exit 1
  fi
  sleep 10
done
if %s merge --json --out %s %s/part-%s-*.wsp 2>%s/merge.log; then
  exit 0
else
  status=$?
  cat %s/merge.log >&2
  exit $status
fi`, j.Shards, partsDir, study, partsDir, study, j.Shards, name, shellQuote(j.Websim), shellQuote(path.Join(partsDir, path.Base(j.Results))), partsDir, study, partsDir, partsDir)
	var fileNames []string
	for _, f := range j.Files {
		fileNames = append(fileNames, f.Name)
	}
	data := map[string]any{
		"Name": name, "Model": j.Model, "Shards": j.Shards, "Parallelism": j.Parallelism,
		"Image": yamlString(j.Image), "Websim": yamlString(j.Websim), "CPUs": j.CPUs, "Storage": yamlString(j.Storage),
		"Files": fileNames, "Data": files, "ModelDir": yamlString(modelDir), "Parts": partsDir,
		"Shard": indent(shard, "          "), "Merge": indent(merge, "          "), "StorageClass": j.StorageClass,
		"Results": path.Join(partsDir, path.Base(j.Results)), "ModelPVC": j.ModelPVC, "ModelName": j.name(),
	}
	return k8sTemplate.Execute(w, data)
}

// token names the study in the parts' files: a digest of what makes the
// study (the model's workbooks or claim, the run's flags, the shards, the
// program), so that a manifest written again for the same study finds its
// parts, and another study's are passed over.
func (j KubernetesJob) token() string {
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %q %d %q %q\n", j.Model, j.ModelPVC, j.RunFlags, j.Shards, j.Image, j.Websim)
	for _, f := range j.Files {
		fmt.Fprintf(h, "%q %d\n", f.Name, len(f.Data))
		h.Write(f.Data)
	}
	return hex.EncodeToString(h.Sum(nil))[:10]
}

func indent(s, pad string) string {
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

var k8sTemplate = template.Must(template.New("k8s").Funcs(template.FuncMap{"q": yamlString}).Parse(`# Runs the websim study of {{.Model}} on Kubernetes as {{.Shards}} shards, then merges them.
# Written by "websim cluster k8s". Apply, follow, collect:
#
#   kubectl apply -f THIS_FILE
#   kubectl wait --for=condition=complete job/{{.Name}}-merge --timeout=24h
#   kubectl logs job/{{.Name}}-merge > OutPut.json
#
# The workbook is {{.Results}} on the volume {{.Name}}-parts. The image
# {{.Image}} must hold websim and /bin/sh. Delete with:
#   kubectl delete -f THIS_FILE
{{- if .ModelPVC}}
#
# The model is read from the existing PersistentVolumeClaim {{.ModelPVC}},
# mounted read-only at /models: it must hold the model folder {{.ModelName}}
# (SvcData.xlsx and ProcData.xlsx) at its top, read as /models/{{.ModelName}}.
{{- else}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{.Name}}-model
  labels:
    app.kubernetes.io/name: websim
    app.kubernetes.io/instance: {{.Name}}
binaryData:
{{- range $f, $d := .Data}}
  {{q $f}}: {{$d}}
{{- end}}
---
{{- end}}
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: {{.Name}}-parts
  labels:
    app.kubernetes.io/name: websim
    app.kubernetes.io/instance: {{.Name}}
spec:
  # Every shard writes here, maybe from several nodes at once.
  accessModes:
    - ReadWriteMany
{{- if .StorageClass}}
  storageClassName: {{q .StorageClass}}
{{- end}}
  resources:
    requests:
      storage: {{.Storage}}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: {{.Name}}-shards
  labels:
    app.kubernetes.io/name: websim
    app.kubernetes.io/instance: {{.Name}}
spec:
  completionMode: Indexed
  completions: {{.Shards}}
  parallelism: {{.Parallelism}}
  backoffLimit: {{.Shards}}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: websim
        app.kubernetes.io/instance: {{.Name}}
    spec:
      restartPolicy: Never
      containers:
      - name: shard
        image: {{.Image}}
        command:
        - /bin/sh
        - -c
        args:
        - |
{{.Shard}}
        env:
        - name: JOB_COMPLETION_INDEX
          valueFrom:
            fieldRef:
              fieldPath: metadata.annotations['batch.kubernetes.io/job-completion-index']
        resources:
          requests:
            cpu: "{{.CPUs}}"
        volumeMounts:
        - name: model
          mountPath: {{if .ModelPVC}}/models{{else}}{{.ModelDir}}{{end}}
          readOnly: true
        - name: parts
          mountPath: {{.Parts}}
      volumes:
      - name: model
{{- if .ModelPVC}}
        persistentVolumeClaim:
          claimName: {{q .ModelPVC}}
          readOnly: true
{{- else}}
        configMap:
          name: {{.Name}}-model
          items:
{{- range .Files}}
          - key: {{q .}}
            path: {{q .}}
{{- end}}
{{- end}}
      - name: parts
        persistentVolumeClaim:
          claimName: {{.Name}}-parts
---
apiVersion: batch/v1
kind: Job
metadata:
  name: {{.Name}}-merge
  labels:
    app.kubernetes.io/name: websim
    app.kubernetes.io/instance: {{.Name}}
spec:
  # Kubernetes has no dependency between Jobs: the merge waits until every
  # shard's part is on the volume (a part appears whole, once its shard is
  # done), for at most a day.
  completions: 1
  backoffLimit: 2
  activeDeadlineSeconds: 86400
  template:
    metadata:
      labels:
        app.kubernetes.io/name: websim
        app.kubernetes.io/instance: {{.Name}}
    spec:
      restartPolicy: Never
      containers:
      - name: merge
        image: {{.Image}}
        command:
        - /bin/sh
        - -c
        args:
        - |
{{.Merge}}
        volumeMounts:
        - name: parts
          mountPath: {{.Parts}}
      volumes:
      - name: parts
        persistentVolumeClaim:
          claimName: {{.Name}}-parts
`))

// dnsSubdomain is the form of a PersistentVolumeClaim's name.
var dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// validDNSName reports whether s can name a PersistentVolumeClaim.
func validDNSName(s string) bool { return len(s) <= 253 && dnsSubdomain.MatchString(s) }
