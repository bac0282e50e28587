package episode

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"
)

// JUnit types: the usual shape CI dashboards read (testsuites > testsuite >
// testcase > failure | error).
type (
	JUnitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []JUnitSuite `xml:"testsuite"`
	}
	JUnitSuite struct {
		Name      string      `xml:"name,attr"`
		Tests     int         `xml:"tests,attr"`
		Failures  int         `xml:"failures,attr"`
		Errors    int         `xml:"errors,attr"`
		Time      string      `xml:"time,attr"`
		Timestamp string      `xml:"timestamp,attr,omitempty"`
		Cases     []JUnitCase `xml:"testcase"`
	}
	JUnitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *JUnitProblem `xml:"failure,omitempty"`
		Error     *JUnitProblem `xml:"error,omitempty"`
	}
	JUnitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes results as one JUnit test suite named after the spec.
func WriteJUnit(w io.Writer, specName string, results []Result, at time.Time) error {
	suite := JUnitSuite{Name: specName, Tests: len(results), Timestamp: at.UTC().Format(time.RFC3339)}
	var total time.Duration
	for _, r := range results {
		total += r.Duration
		c := JUnitCase{Name: r.Name, Classname: "thea.episodes." + specName, Time: seconds(r.Duration)}
		switch {
		case r.Error != "":
			suite.Errors++
			c.Error = &JUnitProblem{Message: r.Error, Type: "error", Text: r.Error}
		case r.Divergence != nil:
			suite.Failures++
			d := r.Divergence
			msg := fmt.Sprintf("diverged at turn %d, %s %s", d.Turn, d.Kind, d.Tool)
			c.Failure = &JUnitProblem{Message: msg, Type: "divergence", Text: d.String()}
		}
		suite.Cases = append(suite.Cases, c)
	}
	suite.Time = seconds(total)
	doc := JUnitSuites{Name: "thea test", Tests: suite.Tests, Failures: suite.Failures, Errors: suite.Errors, Time: suite.Time, Suites: []JUnitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	if _, err := io.WriteString(w, "\n"); err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	return nil
}
