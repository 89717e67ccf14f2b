package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// AxeDir is the directory, from the module's root, where npm installs the
// pinned axe-core (its package.json and package-lock.json are there; its
// node_modules is not committed).
const AxeDir = "internal/browser/axe"

// AxeInstall is the command, run at the module's root, that installs it.
const AxeInstall = "bash scripts/deps.sh test"

// axeScript is axe-core's browser build, under AxeDir.
const axeScript = "node_modules/axe-core/axe.min.js"

// ErrAxeMissing is returned by LoadAxe when axe-core is not installed.
var ErrAxeMissing = errors.New("browser: axe-core is not installed in " + AxeDir + ": run '" + AxeInstall + "' (or 'npm ci' in " + AxeDir + ")")

// Axe is axe-core's script, read once and injected into each page it checks.
type Axe struct{ src string }

// LoadAxe reads axe-core from AxeDir under root, the module's root.
func LoadAxe(root string) (*Axe, error) {
	b, err := os.ReadFile(filepath.Join(root, AxeDir, axeScript))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrAxeMissing
	}
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	return &Axe{src: string(b)}, nil
}

// Violation is one of axe-core's rules that a page breaks, with the
// impact serious or critical.
type Violation struct {
	ID      string   `json:"id"`      // the rule, e.g. "th-has-data-cells"
	Impact  string   `json:"impact"`  // "serious" or "critical"
	Help    string   `json:"help"`    // what the rule asks, in a line
	HelpURL string   `json:"helpUrl"` // where axe-core explains it
	Targets []string `json:"targets"` // CSS selectors of the first MaxTargets nodes that break it
	Count   int      `json:"count"`   // how many nodes break it
	// Summary is what axe-core says is wrong with the first node, e.g.
	// "Fix any of the following: Element has insufficient color contrast
	// of 4.48 (foreground color: #777777, …)", on one line.
	Summary string `json:"summary"`
}

// MaxTargets bounds Violation.Targets.
const MaxTargets = 5

// String is v in a line: "th-has-data-cells (serious, 2 nodes): All th
// elements …: table > tr > th, …; the first: Fix …".
func (v Violation) String() string {
	s := fmt.Sprintf("%s (%s, %d nodes): %s: %s", v.ID, v.Impact, v.Count, v.Help, strings.Join(v.Targets, ", "))
	if n := v.Count - len(v.Targets); n > 0 {
		s += fmt.Sprintf(" and %d more", n)
	}
	if v.Summary != "" {
		s += "; the first: " + v.Summary
	}
	return s
}

// axeRunJS runs axe-core's default rules (WCAG 2 A and AA and its best
// practices) on the whole document and keeps the serious and critical
// violations.
const axeRunJS = `axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations
	.filter(v => v.impact === "serious" || v.impact === "critical")
	.map(v => ({id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, count: v.nodes.length,
		targets: v.nodes.slice(0, MAX).map(n => n.target.join(" ")),
		summary: (v.nodes[0] && v.nodes[0].failureSummary || "").replace(/\s+/g, " ").trim()})))`

// Axe injects axe-core into the page, unless it is there already, runs it
// on the document and returns the violations whose impact is serious or
// critical, in axe-core's order. The script is evaluated through the
// DevTools protocol, which no Content-Security-Policy of the page forbids.
// One run at a time per page.
func (p *Page) Axe(ctx context.Context, a *Axe) ([]Violation, error) {
	var vs []Violation
	err := runBounded(ctx, p.ctx, nil, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		has, err := chromedp.Evaluate[bool](`typeof axe === "object" && typeof axe.run === "function"`)(ctx, t)
		if err != nil {
			return err
		}
		if !has {
			if _, err := chromedp.Evaluate[chromedp.Void](a.src+"\n;undefined")(ctx, t); err != nil {
				return fmt.Errorf("inject axe-core: %w", err)
			}
		}
		vs, err = chromedp.Evaluate[[]Violation](strings.Replace(axeRunJS, "MAX", fmt.Sprint(MaxTargets), 1), chromedp.EvalAwaitPromise)(ctx, t)
		return err
	}))
	if err != nil {
		return nil, fmt.Errorf("browser: axe: %w", err)
	}
	return vs, nil
}

// AXNode is a node of a page's accessibility tree: what a screen reader
// is given of an element.
type AXNode struct {
	Role     string // Chromium's computed role: "table", "columnheader", "cell"…
	Name     string // the accessible name, "" for none
	Children []*AXNode
}

// Find returns the nodes of the tree under n, n included, for which keep
// is true, in document order.
func (n *AXNode) Find(keep func(*AXNode) bool) []*AXNode {
	var out []*AXNode
	var walk func(*AXNode)
	walk = func(n *AXNode) {
		if keep(n) {
			out = append(out, n)
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	return out
}

// AXTree returns the page's accessibility tree as Chromium computes it.
// The nodes it ignores (a layout table's rows and cells, what is hidden,
// generic containers) are left out, their children in their place.
func (p *Page) AXTree(ctx context.Context) (*AXNode, error) {
	var nodes []*accessibility.Node
	err := runBounded(ctx, p.ctx, nil, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		r, err := cdp.Call(ctx, t, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		nodes = r.Nodes
		return err
	}))
	if err != nil {
		return nil, fmt.Errorf("browser: accessibility tree: %w", err)
	}
	if len(nodes) == 0 {
		return nil, errors.New("browser: accessibility tree: empty")
	}
	byID := make(map[accessibility.NodeID]*accessibility.Node, len(nodes))
	for _, n := range nodes {
		byID[n.NodeID] = n
	}
	str := func(v *accessibility.Value) string {
		var s string
		if v != nil {
			_ = json.Unmarshal(v.Value, &s) // a name or role that is not a string stays ""
		}
		return s
	}
	// build returns n's node, or its children's when n is ignored.
	var build func(n *accessibility.Node, depth int) []*AXNode
	build = func(n *accessibility.Node, depth int) []*AXNode {
		var kids []*AXNode
		if depth < maxAXDepth {
			for _, id := range n.ChildIDs {
				if c, ok := byID[id]; ok {
					kids = append(kids, build(c, depth+1)...)
				}
			}
		}
		if n.Ignored {
			return kids
		}
		return []*AXNode{{Role: str(n.Role), Name: str(n.Name), Children: kids}}
	}
	return &AXNode{Role: "root", Children: build(nodes[0], 0)}, nil
}

// maxAXDepth bounds the walk of a tree whose parents Chromium gives.
const maxAXDepth = 256
