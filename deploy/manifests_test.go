// Package deploy holds the Kubernetes manifests' test, in a module of its
// own so that the library's go.mod never names k8s.io/api.
package deploy

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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
// capabilities, resources, and a grace period longer than the shutdown
// delay plus the shutdown timeout.
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
	// The memory limit holds the measured bound of serve's peak RSS (see
	// docs/serving.md): twice the buffered bodies and the checks' copies of
	// their documents (the garbage collector's headroom), plus 64 MiB.
	var buffered, maxBody, concurrent int64
	var delay, timeout time.Duration
	for _, a := range c.Args {
		k, v, _ := strings.Cut(a, "=")
		switch k {
		case "-max-buffered-bytes":
			buffered = parseInt(t, v)
		case "-max-body-bytes":
			maxBody = parseInt(t, v)
		case "-max-concurrent":
			concurrent = parseInt(t, v)
		case "-shutdown-delay":
			delay = parseDuration(t, v)
		case "-shutdown-timeout":
			timeout = parseDuration(t, v)
		}
	}
	if maxBody == 0 {
		maxBody = 64 << 20 // serve's default
	}
	bound := 2*(buffered+concurrent*maxBody) + 64<<20
	if lim := c.Resources.Limits.Memory().Value(); buffered == 0 || concurrent == 0 || lim < bound {
		t.Errorf("memory limit %d for -max-buffered-bytes %d, -max-concurrent %d, -max-body-bytes %d: want at least %d",
			lim, buffered, concurrent, maxBody, bound)
	}
	if spec.TerminationGracePeriodSeconds == nil || time.Duration(*spec.TerminationGracePeriodSeconds)*time.Second <= delay+timeout || timeout == 0 {
		t.Errorf("terminationGracePeriodSeconds %v, want more than -shutdown-delay %v + -shutdown-timeout %v",
			spec.TerminationGracePeriodSeconds, delay, timeout)
	}
}

func parseInt(t *testing.T, s string) int64 {
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

func parseDuration(t *testing.T, s string) time.Duration {
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
