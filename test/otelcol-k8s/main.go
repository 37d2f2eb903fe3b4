// The test collector with the contrib k8s_events and k8sobjects receivers, pointed at the test
// control plane: the receivers' own output is what `--from` must read back, from a file (the
// contrib file exporter) or from a store the core otlphttp exporter sends to (VictoriaLogs). The module proxy
// serves k8seventsreceiver only at v0.111.0, so this collector is that release throughout
// (test/otelcol, the OTLP receiver and file exporter alone, is the current v0.165.0).
//
// Run: otelcol-k8s --config=/path/to/config.yaml (test/harness/otelcol.ts writes one).
package main

import (
	"fmt"
	"os"

	"github.com/open-telemetry/opentelemetry-collector-contrib/exporter/fileexporter"
	"github.com/open-telemetry/opentelemetry-collector-contrib/receiver/k8seventsreceiver"
	"github.com/open-telemetry/opentelemetry-collector-contrib/receiver/k8sobjectsreceiver"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/otlphttpexporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
)

func components() (otelcol.Factories, error) {
	var err error
	f := otelcol.Factories{}
	if f.Receivers, err = receiver.MakeFactoryMap(otlpreceiver.NewFactory(), k8seventsreceiver.NewFactory(), k8sobjectsreceiver.NewFactory()); err != nil {
		return f, err
	}
	if f.Exporters, err = exporter.MakeFactoryMap(fileexporter.NewFactory(), otlphttpexporter.NewFactory()); err != nil {
		return f, err
	}
	return f, nil
}

func main() {
	settings := otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: "otelcol-k8s", Description: "kubectl-evtimeline test collector with the k8s receivers", Version: "0.111.0"},
		Factories: components,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{
			ResolverSettings: confmap.ResolverSettings{
				ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory()},
				DefaultScheme:     "file",
			},
		},
	}
	if err := otelcol.NewCommand(settings).Execute(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
