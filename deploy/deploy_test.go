package deploy

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	unit   = "lexio.service"
	binary = "/usr/local/bin/lexio"
)

// directives reads a unit's "Key=value" lines, by section and key; a
// key given twice keeps every value, in order.
func directives(t *testing.T, text string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	section := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = line
		default:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("%s: %q is no Key=value", unit, line)
			}
			out[section+k] = append(out[section+k], v)
		}
	}
	return out
}

// TestUnitContract: the unit says what the service promises a host
// (issue 27: its own user, Type=notify, reload by SIGHUP, the sandbox).
func TestUnitContract(t *testing.T) {
	text, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	d := directives(t, string(text))
	for key, want := range map[string]string{
		"[Service]Type":                    "notify",
		"[Service]NotifyAccess":            "main",
		"[Service]ExecStart":               binary + " serve -c /etc/lexio/config.toml",
		"[Service]ExecReload":              "/bin/kill -HUP $MAINPID",
		"[Service]Restart":                 "on-failure",
		"[Service]Environment":             "GOGC=400",
		"[Service]User":                    "lexio",
		"[Service]StateDirectory":          "lexio",
		"[Service]ConfigurationDirectory":  "lexio",
		"[Service]ProtectSystem":           "strict",
		"[Service]ProtectHome":             "yes",
		"[Service]PrivateTmp":              "yes",
		"[Service]NoNewPrivileges":         "yes",
		"[Service]CapabilityBoundingSet":   "",
		"[Service]RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
		"[Install]WantedBy":                "multi-user.target",
	} {
		if got := d[key]; !slices.Equal(got, []string{want}) {
			t.Errorf("%s: %s = %q, want %q", unit, key, got, want)
		}
	}
	if got := d["[Service]SystemCallFilter"]; len(got) == 0 || got[0] != "@system-service" {
		t.Errorf("%s: SystemCallFilter = %q, want @system-service first", unit, got)
	}
	if d["[Service]DynamicUser"] != nil {
		t.Errorf("%s: DynamicUser and User=lexio both", unit)
	}
}

// TestUnitMatchesServe: the command line of ExecStart is serve's: the
// configuration file is its -c flag.
func TestUnitMatchesServe(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "cmd", "lexio", "serve.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `fs.String("c", configPath(e), "configuration `+"`file`"+`")`) {
		t.Errorf("cmd/lexio/serve.go no longer reads the file from -c: change ExecStart in %s", unit)
	}
}

// TestUnitVerifies runs systemd-analyze verify on the unit, where it is
// installed. verify wants ExecStart's binary to exist: the unit checked
// is a copy naming a stand-in in a temporary directory.
func TestUnitVerifies(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("systemd-analyze is not installed: scripts/deps.sh test installs it (package systemd)")
		}
		t.Skip("systemd-analyze is not installed (apt-get install systemd): the unit is not verified")
	}
	text, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stand := filepath.Join(dir, "lexio")
	if err := os.WriteFile(stand, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := "\nExecStart=" + binary + " "
	if !strings.Contains(string(text), start) {
		t.Fatalf("%s: no ExecStart=%s", unit, binary)
	}
	copied := filepath.Join(dir, unit)
	if err := os.WriteFile(copied, []byte(strings.Replace(string(text), start, "\nExecStart="+stand+" ", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(analyze, "verify", "--man=no", copied).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify %s: %v\n%s", unit, err, out)
	}
}
