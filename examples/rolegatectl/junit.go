package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"time"

	"github.com/rolegate/rolegate/authz/authztest"
)

// The JUnit XML report of policy test: one suite per run, one test case
// per case, a failure element for each that fails (the form Jenkins,
// GitLab and GitHub's test reporters read).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitFailure `xml:"failure"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes the report of a run to path (0600).
func writeJUnit(path, policyFile string, cases []sourcedCase, results []authztest.Result, elapsed time.Duration) error {
	secs := fmt.Sprintf("%.3f", elapsed.Seconds())
	suite := junitSuite{Name: "rolegate policy " + policyFile, Tests: len(results), Time: secs, Timestamp: time.Now().UTC().Format("2006-01-02T15:04:05")}
	for i, r := range results {
		jc := junitCase{Name: r.Case.Title(), Classname: cases[i].file, File: cases[i].file, Line: r.Case.Line}
		if r.Failed() {
			suite.Failures++
			jc.Failure = &junitFailure{
				Message: fmt.Sprintf("expected %s, got %s", word(r.Case.Allow), word(r.Got)),
				Type:    "decision",
				Text:    r.Format(cases[i].where()),
			}
		}
		suite.Cases = append(suite.Cases, jc)
	}
	doc := junitSuites{Name: "rolegatectl policy test", Tests: suite.Tests, Failures: suite.Failures, Time: secs, Suites: []junitSuite{suite}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	b = append([]byte(xml.Header), append(b, '\n')...)
	return os.WriteFile(path, b, 0o600)
}

func word(allow bool) string {
	if allow {
		return "allow"
	}
	return "deny"
}
