package examples_test

import (
	"fmt"
	"os"
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
					RestartPolicy string `yaml:"restartPolicy"`
					Containers    []struct {
						Args []string `yaml:"args"`
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
	args := strings.Join(s.Template.Spec.Containers[0].Args, " ")
	for _, want := range []string{"thea eval", fmt.Sprintf(`--shard "${JOB_COMPLETION_INDEX}/%d"`, s.Completions), "--format json", "--out"} {
		if !strings.Contains(args, want) {
			t.Errorf("the eval command lacks %q: %s", want, args)
		}
	}
}
