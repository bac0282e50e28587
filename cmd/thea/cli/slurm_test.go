package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
)

// slurmCluster skips the test unless sbatch is installed and a cluster
// answers sinfo with a node that can run jobs (.ci/slurm-up starts one).
func slurmCluster(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Skip("sbatch not on PATH: no Slurm here (.ci/slurm-up installs and starts a one-node cluster)")
	}
	out, err := exec.CommandContext(t.Context(), "sinfo", "-h", "-o", "%t").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "idle") && !strings.Contains(string(out), "mix") {
		t.Skipf("no Slurm cluster answers with a node free to run jobs (sinfo: %v %q): run .ci/slurm-up", err, out)
	}
}

// The Slurm example on a real cluster: a 4-task job array of eval.sbatch
// (one shard per task, --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)
// and merge.sbatch after it (--dependency=afterok) give exactly the
// unsharded evaluation. The jobs run `thea` from PATH: in this test, the
// test binary, which serves as thea.
func TestSlurmArrayMergesToTheWhole(t *testing.T) {
	slurmCluster(t)
	spec := householdCopy(t)
	out := filepath.Join(t.TempDir(), "results")
	submit, err := filepath.Abs(filepath.Join("..", "..", "..", "examples", "slurm", "submit.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), submit, spec, "8", out, "4")
	cmd.Dir = filepath.Dir(spec)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("submit.sh: %v\n%s", err, b)
	}
	f := strings.Fields(string(b))
	if len(f) != 4 || f[0] != "array" || f[2] != "merge" {
		t.Fatalf("submit.sh printed %q, want \"array ID merge ID\"", b)
	}
	array, merge := f[1], f[3]
	t.Cleanup(func() {
		// A test that failed early leaves no jobs behind.
		_ = exec.Command("scancel", array, merge).Run()
	})
	// Wait for both jobs to leave the queue.
	deadline := time.Now().Add(testtime.Scale(3 * time.Minute))
	for {
		q, err := exec.CommandContext(t.Context(), "squeue", "-h", "-j", array+","+merge).CombinedOutput()
		if err == nil && len(bytes.TrimSpace(q)) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the jobs are still queued after %v:\n%s\n%s", testtime.Scale(3*time.Minute), q, slurmLogs(out))
		}
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-time.After(250 * time.Millisecond):
		}
	}
	for i := range 4 {
		if _, err := os.Stat(filepath.Join(out, fmt.Sprintf("shard-%d.json", i))); err != nil {
			t.Errorf("shard %d: %v", i, err)
		}
	}
	merged, err := os.ReadFile(filepath.Join(out, "merged.json"))
	if err != nil {
		t.Fatalf("the merge job wrote no result: %v\n%s", err, slurmLogs(out))
	}
	code, whole, errs := thea(t, "eval", "--spec", spec, "--episodes", "8", "--format", "json")
	if code != 0 {
		t.Fatalf("unsharded eval: exit %d\n%s", code, errs)
	}
	if string(merged) != whole {
		t.Errorf("the merged array differs from the unsharded evaluation:\n%s\nwant\n%s", merged, whole)
	}
}

// slurmLogs is every job log in dir, for a failure message.
func slurmLogs(dir string) string {
	logs, _ := filepath.Glob(filepath.Join(dir, "slurm-*.out"))
	var b strings.Builder
	for _, l := range logs {
		c, _ := os.ReadFile(l)
		b.WriteString("== " + filepath.Base(l) + "\n" + string(c))
	}
	return b.String()
}
