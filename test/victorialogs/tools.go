//go:build tools

// VictoriaLogs (Apache-2.0) for the store tests: build-victorialogs.mjs builds its
// app/victoria-logs main package at the release go.mod pins, CGO off. This file only keeps the
// requirement in go.mod (`go mod tidy` reads every build tag); it is never compiled.
package tools

import _ "github.com/VictoriaMetrics/VictoriaLogs/app/victoria-logs"
