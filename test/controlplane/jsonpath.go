package main

// The oracle for the plugin's port of kubectl's jsonpath dialect: client-go's own
// k8s.io/client-go/util/jsonpath, run on a document decoded as kubectl's unstructured objects are
// (apimachinery's util/json: integers become int64, other numbers float64).
//
//	controlplane jsonpath [--allow-missing-keys=true] [--as-json] TEMPLATE < doc.json
//	    prints what `-o jsonpath=TEMPLATE` (or jsonpath-as-json) prints; an error goes to stderr, exit 1
//	controlplane jsonpath --batch < cases.json
//	    cases: [{"template","doc","allowMissingKeys","outputJson"}], answers on stdout as
//	    [{"output","error"}], one process for a whole table

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/client-go/util/jsonpath"
)

type jsonpathCase struct {
	Template         string          `json:"template"`
	Doc              json.RawMessage `json:"doc"`
	AllowMissingKeys bool            `json:"allowMissingKeys"`
	OutputJSON       bool            `json:"outputJson"`
}

type jsonpathAnswer struct {
	Output string `json:"output"`
	Error  string `json:"error,omitempty"`
}

func executeJSONPath(c jsonpathCase) (string, error) {
	var data interface{}
	if err := utiljson.Unmarshal(c.Doc, &data); err != nil {
		return "", fmt.Errorf("document: %w", err)
	}
	j := jsonpath.New("oracle").AllowMissingKeys(c.AllowMissingKeys)
	if err := j.Parse(c.Template); err != nil {
		return "", err
	}
	j.EnableJSONOutput(c.OutputJSON)
	var out bytes.Buffer
	err := j.Execute(&out, data)
	return out.String(), err
}

func runJSONPath(args []string) int {
	fs := flag.NewFlagSet("jsonpath", flag.ContinueOnError)
	allowMissing := fs.Bool("allow-missing-keys", true, "kubectl's --allow-missing-template-keys")
	asJSON := fs.Bool("as-json", false, "-o jsonpath-as-json")
	batch := fs.Bool("batch", false, "read a JSON array of cases on stdin")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	input, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if *batch {
		var cases []jsonpathCase
		if err := json.Unmarshal(input, &cases); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		answers := make([]jsonpathAnswer, len(cases))
		for i, c := range cases {
			out, err := executeJSONPath(c)
			answers[i].Output = out
			if err != nil {
				answers[i].Error = err.Error()
			}
		}
		if err := json.NewEncoder(os.Stdout).Encode(answers); err != nil {
			return 1
		}
		return 0
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: controlplane jsonpath [--allow-missing-keys=true] [--as-json] TEMPLATE < doc.json")
		return 2
	}
	out, err := executeJSONPath(jsonpathCase{Template: fs.Arg(0), Doc: input, AllowMissingKeys: *allowMissing, OutputJSON: *asJSON})
	os.Stdout.WriteString(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 1
	}
	return 0
}
