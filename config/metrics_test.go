package config

import (
	"strings"
	"testing"
)

// TestMetrics reads [metrics]: off by default, a host:port else.
func TestMetrics(t *testing.T) {
	base := "[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"
	c, err := Parse([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if c.Metrics.On() {
		t.Errorf("metrics %+v: want off by default", c.Metrics)
	}
	for _, listen := range []string{"127.0.0.1:9464", ":9464", "[::1]:9464", "localhost:0"} {
		c, err := Parse([]byte(base + "[metrics]\nlisten = \"" + listen + "\"\n"))
		if err != nil {
			t.Errorf("listen %q: %v", listen, err)
			continue
		}
		if !c.Metrics.On() || c.Metrics.Listen != listen {
			t.Errorf("listen %q: %+v", listen, c.Metrics)
		}
	}
	for _, listen := range []string{"9464", "127.0.0.1", "127.0.0.1:", ":", "http://127.0.0.1:9464"} {
		_, err := Parse([]byte(base + "[metrics]\nlisten = \"" + listen + "\"\n"))
		if err == nil || !strings.Contains(err.Error(), "metrics.listen") || !strings.Contains(err.Error(), "host:port") {
			t.Errorf("listen %q: %v, want an error naming metrics.listen", listen, err)
		}
	}
	_, err = Parse([]byte(base + "[web]\nlisten = \"127.0.0.1:8080\"\nbase_url = \"https://lexio.example.org\"\n[metrics]\nlisten = \"127.0.0.1:8080\"\n"))
	if err == nil || !strings.Contains(err.Error(), "a port of their own") {
		t.Errorf("metrics on web's address: %v", err)
	}
	_, err = Parse([]byte(base + "[metrics]\nlisten = \"127.0.0.1:9464\"\npath = \"/m\"\n"))
	if err == nil || !strings.Contains(err.Error(), "metrics.path") {
		t.Errorf("an unknown [metrics] key: %v", err)
	}
}

// TestMetricsExample: the example file leaves the metrics off.
func TestMetricsExample(t *testing.T) {
	c, err := Load("../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Metrics.On() {
		t.Errorf("config.example.toml turns the metrics on: %+v", c.Metrics)
	}
}
