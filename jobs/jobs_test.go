package jobs

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The manifest's documents, as far as the Kubernetes API defines their
// fields (batch/v1 Job, core/v1 PodSpec, Container, Volume,
// PersistentVolumeClaim). Decoding with KnownFields refuses any field the
// structs do not declare, so a misspelt or misplaced field (completionmode,
// restartPolicy on the Job spec) fails the test as the API server would
// refuse it.
type object struct {
	APIVersion string   `yaml:"apiVersion"`
	Kind       string   `yaml:"kind"`
	Metadata   metadata `yaml:"metadata"`
	Spec       yaml.Node
}

type metadata struct {
	Name   string            `yaml:"name"`
	Labels map[string]string `yaml:"labels"`
}

type jobSpec struct {
	CompletionMode       string          `yaml:"completionMode"`
	Completions          *int32          `yaml:"completions"`
	Parallelism          *int32          `yaml:"parallelism"`
	BackoffLimit         *int32          `yaml:"backoffLimit"`
	BackoffLimitPerIndex *int32          `yaml:"backoffLimitPerIndex"`
	ActiveDeadlineSecs   *int64          `yaml:"activeDeadlineSeconds"`
	TTLAfterFinished     *int32          `yaml:"ttlSecondsAfterFinished"`
	Template             podTemplateSpec `yaml:"template"`
}

type podTemplateSpec struct {
	Metadata metadata `yaml:"metadata"`
	Spec     podSpec  `yaml:"spec"`
}

type podSpec struct {
	RestartPolicy string      `yaml:"restartPolicy"`
	Containers    []container `yaml:"containers"`
	Volumes       []volume    `yaml:"volumes"`
}

type container struct {
	Name       string   `yaml:"name"`
	Image      string   `yaml:"image"`
	Command    []string `yaml:"command"`
	Args       []string `yaml:"args"`
	WorkingDir string   `yaml:"workingDir"`
	Resources  struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
		ReadOnly  bool   `yaml:"readOnly"`
	} `yaml:"volumeMounts"`
}

type volume struct {
	Name                  string `yaml:"name"`
	PersistentVolumeClaim *struct {
		ClaimName string `yaml:"claimName"`
		ReadOnly  bool   `yaml:"readOnly"`
	} `yaml:"persistentVolumeClaim"`
	NFS *struct {
		Server string `yaml:"server"`
		Path   string `yaml:"path"`
	} `yaml:"nfs"`
}

type claimSpec struct {
	AccessModes      []string `yaml:"accessModes"`
	StorageClassName *string  `yaml:"storageClassName"`
	Resources        struct {
		Requests map[string]string `yaml:"requests"`
	} `yaml:"resources"`
}

// decode decodes a node strictly into v.
func decode(n *yaml.Node, v any) error {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	if err := enc.Encode(n); err != nil {
		return err
	}
	dec := yaml.NewDecoder(&b)
	dec.KnownFields(true)
	return dec.Decode(v)
}

// TestKubernetesIndexedJob checks jobs/k8s-indexed-job.yaml as the Job API
// would, and that it runs a batch: one shard per index, the shard count on
// the command line equal to the completions, the batch folder on a shared
// volume that every pod mounts.
func TestKubernetesIndexedJob(t *testing.T) {
	indexedJob(t, "k8s-indexed-job.yaml", "match", func(_ []string, flag func(string) string) string {
		if flag("-seed") == "0" {
			t.Errorf("-seed 0: every shard would choose its own seed")
		}
		return flag("-out")
	})
}

// TestKubernetesEventJob checks jobs/k8s-event-job.yaml likewise: one task
// of a spread event per index, the config (and so the event's folder) on
// the shared volume, and every index running at once (parallelism equal to
// the completions), as the tasks wait for each other's games.
func TestKubernetesEventJob(t *testing.T) {
	job := indexedJob(t, "k8s-event-job.yaml", "run", func(cmd []string, _ func(string) string) string {
		return cmd[len(cmd)-1] // the config, whose output folder is beside it
	})
	if job.Parallelism == nil || job.Completions == nil || *job.Parallelism != *job.Completions {
		t.Errorf("parallelism %v, completions %v: a spread event's tasks must all run at once", job.Parallelism, job.Completions)
	}
}

// indexedJob checks an Indexed Job manifest as the Job API would, and that
// its one container runs `arena SUB -shard auto/N` with N the completions
// and the folder that shared (given the command's flags) names on a
// shared, writable volume. It returns the Job's spec.
func indexedJob(t *testing.T, file, sub string, shared func(cmd []string, flag func(string) string) string) *jobSpec {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	var job *jobSpec
	claims := map[string]claimSpec{}
	for {
		var o object
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if o.Metadata.Name == "" {
			t.Errorf("a %s without metadata.name", o.Kind)
		}
		switch {
		case o.APIVersion == "batch/v1" && o.Kind == "Job":
			job = new(jobSpec)
			if err := decode(&o.Spec, job); err != nil {
				t.Fatalf("Job %s: spec: %v", o.Metadata.Name, err)
			}
		case o.APIVersion == "v1" && o.Kind == "PersistentVolumeClaim":
			var c claimSpec
			if err := decode(&o.Spec, &c); err != nil {
				t.Fatalf("PersistentVolumeClaim %s: spec: %v", o.Metadata.Name, err)
			}
			claims[o.Metadata.Name] = c
		default:
			t.Fatalf("unexpected document %s %s", o.APIVersion, o.Kind)
		}
	}
	if job == nil {
		t.Fatal("no batch/v1 Job")
	}
	if job.CompletionMode != "Indexed" {
		t.Errorf("completionMode %q: want Indexed (JOB_COMPLETION_INDEX is set only then)", job.CompletionMode)
	}
	if job.Completions == nil || *job.Completions < 1 {
		t.Fatal("an Indexed Job needs completions")
	}
	n := int(*job.Completions)
	if job.Parallelism != nil && (*job.Parallelism < 1 || int(*job.Parallelism) > n) {
		t.Errorf("parallelism %d: want 1 to completions (%d)", *job.Parallelism, n)
	}
	pod := job.Template.Spec
	// The Job API accepts only these two; Always is refused.
	if pod.RestartPolicy != "OnFailure" && pod.RestartPolicy != "Never" {
		t.Errorf("restartPolicy %q: a Job's pods take OnFailure or Never", pod.RestartPolicy)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want the arena's one", len(pod.Containers))
	}
	c := pod.Containers[0]
	if c.Name == "" || c.Image == "" {
		t.Errorf("container name %q image %q: both are required", c.Name, c.Image)
	}
	cmd := append(append([]string(nil), c.Command...), c.Args...)
	if len(cmd) < 2 || cmd[1] != sub {
		t.Fatalf("command %q: want arena %s ...", cmd, sub)
	}
	flag := func(name string) string {
		i := slices.Index(cmd, name)
		if i < 0 || i+1 >= len(cmd) {
			t.Fatalf("command %q has no %s", cmd, name)
		}
		return cmd[i+1]
	}
	if want := "auto/" + strconv.Itoa(n); flag("-shard") != want {
		t.Errorf("-shard %s: want %s, the completions (Kubernetes exports no count)", flag("-shard"), want)
	}
	out := shared(cmd, flag)
	mounted := ""
	for _, m := range c.VolumeMounts {
		if out == m.MountPath || strings.HasPrefix(out, strings.TrimSuffix(m.MountPath, "/")+"/") {
			mounted = m.Name
			if m.ReadOnly {
				t.Errorf("the shared folder's volume %s is mounted read-only", m.Name)
			}
		}
	}
	if mounted == "" {
		t.Fatalf("%s is on no mounted volume: the shards must share it", out)
	}
	i := slices.IndexFunc(pod.Volumes, func(v volume) bool { return v.Name == mounted })
	if i < 0 {
		t.Fatalf("volume %s is mounted but not declared", mounted)
	}
	v := pod.Volumes[i]
	switch {
	case v.PersistentVolumeClaim != nil:
		claim, ok := claims[v.PersistentVolumeClaim.ClaimName]
		if !ok {
			t.Fatalf("volume %s claims %s, which the manifest does not declare", v.Name, v.PersistentVolumeClaim.ClaimName)
		}
		if !slices.Contains(claim.AccessModes, "ReadWriteMany") {
			t.Errorf("claim %s: access modes %v: pods on several nodes write the shared folder: want ReadWriteMany", v.PersistentVolumeClaim.ClaimName, claim.AccessModes)
		}
		if claim.Resources.Requests["storage"] == "" {
			t.Errorf("claim %s requests no storage", v.PersistentVolumeClaim.ClaimName)
		}
	case v.NFS != nil:
	default:
		t.Errorf("volume %s is neither a claim nor NFS: not shared between pods", v.Name)
	}
	return job
}

// TestSlurmEventScript checks what the event script hands the arena;
// cmd/arena's TestSlurmSpreadRoundRobin runs it on a real cluster.
func TestSlurmEventScript(t *testing.T) {
	b, err := os.ReadFile("slurm-event.sh")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"#!/bin/sh", "#SBATCH --requeue", "run -quiet -shard auto", `"$@"`} {
		if !strings.Contains(s, want) {
			t.Errorf("slurm-event.sh lacks %q", want)
		}
	}
	if st, err := os.Stat("slurm-event.sh"); err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("slurm-event.sh is not executable")
	}
}

// TestSlurmScriptAsksForAnArrayShard checks what the Slurm script hands the
// arena; cmd/arena's TestSlurmJobArrayBatch runs it on a real cluster.
func TestSlurmScriptAsksForAnArrayShard(t *testing.T) {
	b, err := os.ReadFile("slurm-array.sh")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"#!/bin/sh", "#SBATCH --requeue", "-shard auto", `"$@"`} {
		if !strings.Contains(s, want) {
			t.Errorf("slurm-array.sh lacks %q", want)
		}
	}
	if st, err := os.Stat("slurm-array.sh"); err != nil || st.Mode()&0o111 == 0 {
		t.Errorf("slurm-array.sh is not executable")
	}
}
