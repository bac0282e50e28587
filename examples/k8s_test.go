package examples_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The Kubernetes example is an Indexed Job whose completion index selects
// the shard, with as many shards as completions.
func TestEvalJobShardsByCompletionIndex(t *testing.T) {
	b, err := os.ReadFile("k8s/eval-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Spec       struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Template       struct {
				Spec struct {
					RestartPolicy  string `yaml:"restartPolicy"`
					InitContainers []any  `yaml:"initContainers"`
					Containers     []struct {
						Image string   `yaml:"image"`
						Args  []string `yaml:"args"`
					} `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(b, &job); err != nil {
		t.Fatal(err)
	}
	s := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || s.CompletionMode != "Indexed" || s.Completions < 2 ||
		s.Template.Spec.RestartPolicy != "Never" || len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("not an Indexed Job of one container: %+v", job)
	}
	c := s.Template.Spec.Containers[0]
	args := strings.Join(c.Args, " ")
	for _, want := range []string{"thea eval", fmt.Sprintf(`--shard "${JOB_COMPLETION_INDEX}/%d"`, s.Completions), "--format json", "--out"} {
		if !strings.Contains(args, want) {
			t.Errorf("the eval command lacks %q: %s", want, args)
		}
	}
}

// The Job runs an image built from this repository by the Dockerfile beside
// it: nothing installs a published module (go install …@latest) at run time.
func TestEvalJobImageIsBuiltFromThisRepository(t *testing.T) {
	job, err := os.ReadFile("k8s/eval-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	df, err := os.ReadFile("k8s/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"go install", "@latest", "initContainers"} {
		if strings.Contains(string(job), bad) {
			t.Errorf("the Job still has %q", bad)
		}
	}
	var doc struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct {
						Image string `yaml:"image"`
					} `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(job, &doc); err != nil {
		t.Fatal(err)
	}
	cs := doc.Spec.Template.Spec.Containers
	if len(cs) != 1 {
		t.Fatalf("%d containers", len(cs))
	}
	// The image the Dockerfile's build line tags is the Job's.
	build := regexp.MustCompile(`docker build -f examples/k8s/Dockerfile -t (\S+) \.`).FindSubmatch(df)
	if build == nil || string(build[1]) != cs[0].Image {
		t.Errorf("the Job's image %q is not the one the Dockerfile's build line tags (%q)", cs[0].Image, build)
	}
	// The Dockerfile builds cmd/thea from the repository it is given, and
	// bakes in the spec the Job evaluates.
	for _, want := range []string{"COPY . .", "go build -trimpath -o /out/thea ./cmd/thea", "COPY --from=build /out/thea /usr/local/bin/thea", "COPY examples/household /workspace/spec"} {
		if !strings.Contains(string(df), want) {
			t.Errorf("the Dockerfile lacks %q", want)
		}
	}
	if !strings.Contains(string(job), "workingDir: /workspace/spec") {
		t.Error("the Job does not run in the image's spec folder")
	}
	// Every path the Dockerfile copies exists, relative to the repository.
	for _, m := range regexp.MustCompile(`(?m)^COPY (\S+) `).FindAllSubmatch(df, -1) {
		src := string(m[1])
		if strings.HasPrefix(src, "--from") || src == "." {
			continue
		}
		if _, err := os.Stat(filepath.Join("..", src)); err != nil {
			t.Errorf("the Dockerfile copies %s: %v", src, err)
		}
	}
}
