package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/sitemapkit/sitemapkit/lint"
)

// SARIF 2.1.0 (OASIS), the static-analysis log GitHub code scanning and
// other CI dashboards read. Only the parts a sitemap report fills are
// declared; the schema is in testdata/sarif.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string            `json:"id"`
	ShortDescription sarifText         `json:"shortDescription"`
	FullDescription  sarifText         `json:"fullDescription"`
	HelpURI          string            `json:"helpUri"`
	Default          sarifRuleDefault  `json:"defaultConfiguration"`
	Properties       map[string]string `json:"properties,omitempty"`
}

type sarifRuleDefault struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	Physical sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifLevel is SARIF's name for a severity: "note" is its info.
func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "note"
}

// sarifReport renders rep as a SARIF log. Every rule is declared, so a
// result's ruleIndex is the same from run to run. GitHub code scanning
// drops a result without a location and places a file's result at its line,
// so a finding about a whole document points at its line 1, and a set-wide
// finding at the first document read. Local files are named relative to the
// working folder, as code scanning names a repository's files, and
// others as file: URIs. listed says which findings are results (-q's).
func sarifReport(rep *lint.Report, listed func(lint.Diagnostic) bool) *sarifLog {
	rules := lint.Rules()
	index := make(map[string]int, len(rules))
	driver := sarifDriver{Name: "sitemapkit", Version: version(), InformationURI: "https://github.com/sitemapkit/sitemapkit"}
	for i, r := range rules {
		index[r.Name] = i
		sr := sarifRule{
			ID:               r.Name,
			ShortDescription: sarifText{r.Title()},
			FullDescription:  sarifText{strings.TrimSpace(r.Doc)},
			HelpURI:          r.URL,
			Default:          sarifRuleDefault{sarifLevel(r.Severity)},
		}
		if r.SearchConsole != "" {
			sr.Properties = map[string]string{"searchConsole": r.SearchConsole}
		}
		driver.Rules = append(driver.Rules, sr)
	}
	first := ""
	for _, f := range rep.Files {
		if f.Read {
			first = f.Name
			break
		}
	}
	wd, _ := os.Getwd()
	results := []sarifResult{}
	for _, d := range rep.Diagnostics {
		if !listed(d) {
			continue
		}
		file := d.File
		if file == "" {
			file = first
		}
		res := sarifResult{
			RuleID:    d.Rule,
			RuleIndex: index[d.Rule],
			Level:     sarifLevel(d.Severity),
			Message:   sarifText{d.Message},
			Locations: []sarifLocation{{Physical: sarifPhysical{
				Artifact: sarifArtifact{URI: sarifURI(file, wd)},
				Region:   sarifRegion{StartLine: max(d.Line, 1), StartColumn: d.Col},
			}}},
		}
		if _, ok := index[d.Rule]; !ok {
			res.RuleIndex = -1
		}
		results = append(results, res)
	}
	return &sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs: []sarifRun{{
			Tool:        sarifTool{Driver: driver},
			Invocations: []sarifInvocation{{ExecutionSuccessful: rep.Summary.FilesRead > 0}},
			Results:     results,
		}},
	}
}

// sarifURI is a document's name as a URI reference: a URL as it is, a
// local file as a slash-separated path, relative to wd when inside it.
func sarifURI(name, wd string) string {
	if isHTTPURL(name) {
		if u, err := url.Parse(name); err == nil {
			return u.String() // escaped: a URL fetched may hold a space
		}
		return name
	}
	if abs, err := filepath.Abs(name); err == nil && !filepath.IsAbs(name) {
		name = abs // ../x is a file: URI too, outside the working folder
	}
	if filepath.IsAbs(name) && wd != "" {
		if rel, err := filepath.Rel(wd, name); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			name = rel
		}
	}
	u := &url.URL{Path: filepath.ToSlash(name)}
	if filepath.IsAbs(name) {
		u.Scheme = "file"
		if !strings.HasPrefix(u.Path, "/") { // C:/x on Windows
			u.Path = "/" + u.Path
		}
	}
	// String escapes what a URI cannot hold and guards a first segment
	// with a colon, which would read as a scheme.
	return u.String()
}
