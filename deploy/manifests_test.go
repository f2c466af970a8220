// Package deploy holds the Kubernetes manifests' test, in a module of its
// own so that the library's go.mod never names k8s.io/api.
package deploy

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

// TestManifests decodes every manifest in kubernetes/ strictly (an unknown
// or misspelt field fails) into its k8s.io/api type, and checks what the
// README promises: probes, a non-root read-only container with no
// capabilities, resources that hold the memory bound serve prints for its
// flags, /metrics on a port of its own, and a grace period longer than
// the shutdown delay plus the shutdown timeout.
func TestManifests(t *testing.T) {
	files, _ := filepath.Glob("kubernetes/*.yaml")
	kinds := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range bytes.Split(data, []byte("\n---\n")) {
			var meta struct{ Kind string }
			if err := yaml.Unmarshal(doc, &meta); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			kinds[meta.Kind]++
			var obj any
			switch meta.Kind {
			case "Deployment":
				obj = &appsv1.Deployment{}
			case "Service":
				obj = &corev1.Service{}
			case "HorizontalPodAutoscaler":
				obj = &autoscalingv2.HorizontalPodAutoscaler{}
			case "PodDisruptionBudget":
				obj = &policyv1.PodDisruptionBudget{}
			default:
				t.Fatalf("%s: unexpected kind %q", f, meta.Kind)
			}
			if err := yaml.UnmarshalStrict(doc, obj); err != nil {
				t.Fatalf("%s: %s: %v", f, meta.Kind, err)
			}
			if d, ok := obj.(*appsv1.Deployment); ok {
				checkDeployment(t, d)
			}
		}
	}
	for _, k := range []string{"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"} {
		if kinds[k] != 1 {
			t.Errorf("%d %s manifests, want 1", kinds[k], k)
		}
	}
}

func checkDeployment(t *testing.T, d *appsv1.Deployment) {
	spec := d.Spec.Template.Spec
	if len(spec.Containers) != 1 {
		t.Fatalf("%d containers", len(spec.Containers))
	}
	c := spec.Containers[0]
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Error("no /readyz readiness probe")
	}
	if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
		t.Error("no /healthz liveness probe")
	}
	sc := c.SecurityContext
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
		sc.Capabilities == nil || !slices.Equal(sc.Capabilities.Drop, []corev1.Capability{"ALL"}) {
		t.Errorf("container security context %+v: want runAsNonRoot, readOnlyRootFilesystem, drop ALL", sc)
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := c.Resources.Requests[r]; !ok {
			t.Errorf("no %s request", r)
		}
		if _, ok := c.Resources.Limits[r]; !ok {
			t.Errorf("no %s limit", r)
		}
	}
	// The memory limit holds the bound serve prints for these flags (see
	// docs/serving.md): twice the buffered bodies and the checks' copies
	// of their documents (the garbage collector's headroom), 64 MiB, and
	// the measured cost of each connection it may hold.
	var delay, timeout time.Duration
	flags := map[string]string{}
	for _, a := range c.Args[1:] {
		k, v, _ := strings.Cut(a, "=")
		flags[k] = v
		switch k {
		case "-shutdown-delay":
			delay = parseDuration(t, v)
		case "-shutdown-timeout":
			timeout = parseDuration(t, v)
		}
	}
	for _, k := range []string{"-max-buffered-bytes", "-max-body-bytes", "-max-concurrent", "-max-connections", "-metrics-addr"} {
		if flags[k] == "" {
			t.Errorf("serve's %s is not set: the memory bound, or where /metrics is, would depend on the machine", k)
		}
	}
	if _, port, _ := strings.Cut(flags["-metrics-addr"], ":"); !slices.ContainsFunc(c.Ports, func(p corev1.ContainerPort) bool {
		return p.Name == "metrics" && strconv.Itoa(int(p.ContainerPort)) == port
	}) {
		t.Errorf("no container port named metrics for -metrics-addr %s", flags["-metrics-addr"])
	}
	if bound, lim := serveBound(t, c.Args), c.Resources.Limits.Memory().Value(); lim < bound {
		t.Errorf("memory limit %d MiB under the bound %d MiB serve prints for %v", lim>>20, bound>>20, c.Args)
	}
	if spec.TerminationGracePeriodSeconds == nil || time.Duration(*spec.TerminationGracePeriodSeconds)*time.Second <= delay+timeout || timeout == 0 {
		t.Errorf("terminationGracePeriodSeconds %v, want more than -shutdown-delay %v + -shutdown-timeout %v",
			spec.TerminationGracePeriodSeconds, delay, timeout)
	}
}

// serveBound builds claimcheck, starts it with args (its first, "serve",
// and its flags, the addresses moved to free loopback ports), and returns
// the memory bound it prints for them.
func serveBound(t *testing.T, args []string) int64 {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "claimcheck")
	build := exec.Command("go", "build", "-o", bin, "./cmd/claimcheck")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var run []string
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "-addr="):
			a = "-addr=127.0.0.1:0"
		case strings.HasPrefix(a, "-metrics-addr="):
			a = "-metrics-addr=127.0.0.1:0"
		}
		run = append(run, a)
	}
	cmd := exec.Command(bin, run...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, b, ok := strings.Cut(sc.Text(), "memory bound "); ok {
			_, b, _ = strings.Cut(b, "(")
			n, err := strconv.ParseInt(strings.Fields(b)[0], 10, 64)
			if err != nil {
				t.Fatalf("memory bound line %q: %v", sc.Text(), err)
			}
			return n
		}
	}
	t.Fatalf("serve %v printed no memory bound", run)
	return 0
}

func parseDuration(t *testing.T, s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
