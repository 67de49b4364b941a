package territories

import (
	_ "embed"
	"sync"
)

// The sample game that ships with Arbiter: its configuration and map. The
// same files are in examples/territories (a test keeps them equal).
var (
	//go:embed sample/config.yaml
	sampleConfig []byte
	//go:embed sample/map.svg
	sampleMap []byte
)

// SampleConfigYAML returns the sample game's configuration file.
func SampleConfigYAML() []byte { return sampleConfig }

// SampleMap returns the sample game's map, an SVG file.
func SampleMap() []byte { return sampleMap }

var sample = sync.OnceValues(func() (*Config, error) { return ParseConfig(sampleConfig) })

// Sample returns the sample game's configuration: eleven states of the
// American West. It is shared: do not change it.
func Sample() *Config {
	c, err := sample()
	if err != nil {
		panic("territories: the embedded sample configuration is invalid: " + err.Error()) // a build defect, caught by the tests
	}
	return c
}
