package cli_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/internal/testutil"
)

var updateTrace = flag.Bool("update-trace", false, "rewrite the expected output of testdata/trace/*.txt")

// Secrets the golden specs declare (run_log.secret_env, and a
// value the pattern pw-[0-9]+ matches): none may reach stdout, stderr or a
// file under the run directory.
const (
	goldenKey   = "sk-golden-key-0123456789"
	goldenToken = "tok-golden-secret-env"
	goldenPW    = "pw-424242"
)

const separator = "----------"

// TestTraceGolden runs each testdata/trace/*.txt, in the shape of Caddy's
// adapt tests: the input (header lines, then the spec and script files,
// each after a "---------- NAME" line), a bare "----------" line, and the
// exact live trace `thea run` prints. Header lines:
//
//	instruction: the task
//	flags: --verbose            (optional)
//	spec: PATH                  (optional: a file outside the test, relative
//	                             to testdata/trace; default spec.yaml)
//
// The work directory prints as $WORK and run-directory times as TIME.
// Run with -update-trace to rewrite the expected parts.
func TestTraceGolden(t *testing.T) {
	t.Setenv("THEA_GOLDEN_KEY", goldenKey)
	t.Setenv("THEA_GOLDEN_TOKEN", goldenToken)
	files, err := filepath.Glob(filepath.Join("testdata", "trace", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			input, want, ok := strings.Cut(string(raw), "\n"+separator+"\n")
			if !ok {
				t.Fatalf("%s: no %q line before the expected output", file, separator)
			}
			work := t.TempDir()
			header, inline := splitInput(t, input)
			for name, body := range inline {
				if err := os.WriteFile(filepath.Join(work, name), []byte(body), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			spec := filepath.Join(work, "spec.yaml")
			if p := header["spec"]; p != "" {
				if spec, err = filepath.Abs(filepath.Join(filepath.Dir(file), p)); err != nil {
					t.Fatal(err)
				}
				spec = testutil.ExampleCopy(t, spec)
			}
			args := []string{"run", "--spec", spec, "--run-log", filepath.Join(work, "runs")}
			args = append(args, strings.Fields(header["flags"])...)
			args = append(args, header["instruction"])
			var out, errb bytes.Buffer
			cli.Execute(t.Context(), strings.NewReader(""), &out, &errb, args)
			got := normalise(out.String(), work)

			assertNoSecrets(t, "stdout", out.String())
			if i := strings.IndexAny(out.String(), "\r\x1b\x07\u009b"); i >= 0 {
				t.Errorf("a raw control character reached the terminal at byte %d", i)
			}
			assertNoSecrets(t, "stderr", errb.String())
			assertRunDirClean(t, filepath.Join(work, "runs"))

			if *updateTrace {
				if err := os.WriteFile(file, []byte(input+"\n"+separator+"\n"+got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != want {
				t.Errorf("trace of %s:\n--- got\n%s--- want\n%s--- stderr\n%s", file, got, want, errb.String())
			}
		})
	}
}

// splitInput reads the header lines and the inline files of an input.
func splitInput(t *testing.T, input string) (map[string]string, map[string]string) {
	header := map[string]string{}
	files := map[string]string{}
	parts := strings.Split("\n"+input+"\n", "\n"+separator+" ")
	for _, line := range strings.Split(parts[0], "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("header line %q is not key: value", line)
		}
		header[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	for _, p := range parts[1:] {
		name, body, _ := strings.Cut(p, "\n")
		files[strings.TrimSpace(name)] = body
	}
	if header["instruction"] == "" {
		t.Fatal("no instruction: header line")
	}
	return header, files
}

var runTime = regexp.MustCompile(`\d{8}T\d{6}\.\d{9}Z`)

func normalise(s, work string) string {
	return runTime.ReplaceAllString(strings.ReplaceAll(s, work, "$WORK"), "TIME")
}

func assertNoSecrets(t *testing.T, where, s string) {
	t.Helper()
	for _, secret := range []string{goldenKey, goldenToken, goldenPW} {
		if strings.Contains(s, secret) {
			t.Errorf("%s carries the secret %q", where, secret)
		}
	}
}

// assertRunDirClean checks every file name and content under the run log.
func assertRunDirClean(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		assertNoSecrets(t, "run-log name "+p, d.Name())
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		assertNoSecrets(t, "run-log file "+d.Name(), string(b))
		return nil
	})
	if err != nil {
		t.Errorf("walking the run log: %v", err)
	}
}
