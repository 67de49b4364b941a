// Package deploy holds the manifests that run Arbiter on a cluster; its test
// runs their commands as the cluster would.
package deploy

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// job is the part of a Kubernetes Job the test reads.
type job struct {
	Kind     string
	Metadata struct{ Name string }
	Spec     struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int
		Parallelism    int
		Template       struct {
			Spec struct {
				Containers []struct {
					Command []string
					Args    []string
					Env     []struct{ Name, Value string }
				}
			}
		}
	}
}

func (j job) env() []string {
	var env []string
	for _, e := range j.Spec.Template.Spec.Containers[0].Env {
		env = append(env, e.Name+"="+e.Value)
	}
	return env
}

// script is the container's shell script, with the shared volume's mount
// point moved to dir.
func (j job) script(t *testing.T, dir string) string {
	c := j.Spec.Template.Spec.Containers[0]
	if len(c.Command) != 2 || c.Command[0] != "sh" || c.Command[1] != "-c" || len(c.Args) != 1 {
		t.Fatalf("job %s: want command [sh -c] and one script in args, have %q %q", j.Metadata.Name, c.Command, c.Args)
	}
	return strings.ReplaceAll(c.Args[0], "/results", dir)
}

func jobs(t *testing.T) map[string]job {
	f, err := os.Open("tournament.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	found := map[string]job{}
	dec := yaml.NewDecoder(f)
	for {
		var j job
		err := dec.Decode(&j)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("tournament.yaml: %v", err)
		}
		if j.Kind == "Job" {
			found[j.Metadata.Name] = j
		}
	}
	return found
}

// TestIndexedJob runs every pod of the shards Job and then the merge Job,
// each as its script, with the environment Kubernetes gives it, and checks
// the standings equal a single run of the same tournament.
func TestIndexedJob(t *testing.T) {
	if testing.Short() {
		t.Skip("builds arbiter")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	all := jobs(t)
	shards, merge := all["arbiter-shards"], all["arbiter-merge"]
	if shards.Kind == "" || merge.Kind == "" {
		t.Fatalf("tournament.yaml: want Jobs arbiter-shards and arbiter-merge, have %v", all)
	}
	if shards.Spec.CompletionMode != "Indexed" {
		t.Errorf("arbiter-shards: completionMode %q, want Indexed", shards.Spec.CompletionMode)
	}
	n := shards.Spec.Completions
	want := map[string]string{}
	for _, e := range shards.env() {
		k, v, _ := strings.Cut(e, "=")
		want[k] = v
	}
	if strconv.Itoa(n) != want["SHARDS"] || shards.Spec.Parallelism != n {
		t.Errorf("arbiter-shards: completions %d, parallelism %d and SHARDS %q must agree", n, shards.Spec.Parallelism, want["SHARDS"])
	}
	if e := merge.env(); len(e) != 1 || e[0] != "SHARDS="+want["SHARDS"] {
		t.Errorf("arbiter-merge: env %q, want SHARDS=%s", e, want["SHARDS"])
	}

	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "arbiter"), "../cmd/arbiter")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	results := t.TempDir()
	run := func(j job, extra ...string) string {
		t.Helper()
		cmd := exec.Command("sh", "-c", j.script(t, results))
		cmd.Env = append(append([]string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}, j.env()...), extra...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("job %s %q: %v\n%s", j.Metadata.Name, extra, err, stderr.String())
		}
		return stdout.String()
	}
	for i := n - 1; i >= 0; i-- { // in any order, as pods finish
		run(shards, "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
	}
	got := run(merge)

	args := append([]string{"tournament", want["GAME"], "--players", want["PLAYERS"], "--seed", want["SEED"]}, strings.Fields(want["ARGS"])...)
	single := exec.Command(filepath.Join(bin, "arbiter"), args...)
	out, err := single.Output()
	if err != nil {
		t.Fatalf("single run %q: %v", args, err)
	}
	if got != string(out) {
		t.Errorf("merged standings differ from a single run's:\n%s\nsingle run:\n%s", got, out)
	}
	if txt, err := os.ReadFile(filepath.Join(results, "standings.txt")); err != nil || string(txt) != got {
		t.Errorf("standings.txt: %v; want the printed standings", err)
	}
	for i := range n {
		if _, err := os.Stat(filepath.Join(results, "shard-"+strconv.Itoa(i)+".jsonl.part")); err == nil {
			t.Errorf("shard %d left its .part file", i)
		}
	}
}
