package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kelseyhightower/envconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/recordsbot/recordsbot/bot"
	"github.com/recordsbot/recordsbot/bot/bottest"
	"github.com/recordsbot/recordsbot/internal/metrics"
)

// The Kubernetes manifests under deploy/kubernetes must describe this
// binary: these tests read them, the Dockerfile and Config, and fail when
// one drifts from the others.

const deployDir = "../../deploy/kubernetes"

// k8sObject is the part of a Kubernetes object these tests read.
type k8sObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Data       map[string]string `json:"data"`
	StringData map[string]string `json:"stringData"`
	Spec       json.RawMessage   `json:"spec"`
	file       string
	raw        []byte // the document as JSON
}

type podTemplate struct {
	Metadata struct {
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec podSpec `json:"spec"`
}

type podSpec struct {
	TerminationGracePeriodSeconds *int   `json:"terminationGracePeriodSeconds"`
	AutomountServiceAccountToken  *bool  `json:"automountServiceAccountToken"`
	RestartPolicy                 string `json:"restartPolicy"`
	SecurityContext               struct {
		RunAsNonRoot *bool `json:"runAsNonRoot"`
		RunAsUser    *int  `json:"runAsUser"`
		RunAsGroup   *int  `json:"runAsGroup"`
	} `json:"securityContext"`
	Containers []container `json:"containers"`
}

type container struct {
	Name    string   `json:"name"`
	Image   string   `json:"image"`
	Command []string `json:"command"`
	Args    []string `json:"args"`
	Ports   []struct {
		Name          string `json:"name"`
		ContainerPort int    `json:"containerPort"`
	} `json:"ports"`
	Env []struct {
		Name      string `json:"name"`
		Value     string `json:"value"`
		ValueFrom *struct {
			SecretKeyRef *struct {
				Name     string `json:"name"`
				Key      string `json:"key"`
				Optional bool   `json:"optional"`
			} `json:"secretKeyRef"`
		} `json:"valueFrom"`
	} `json:"env"`
	EnvFrom []struct {
		ConfigMapRef *struct {
			Name string `json:"name"`
		} `json:"configMapRef"`
		SecretRef *struct {
			Name string `json:"name"`
		} `json:"secretRef"`
	} `json:"envFrom"`
	ReadinessProbe *probe `json:"readinessProbe"`
	LivenessProbe  *probe `json:"livenessProbe"`
	Lifecycle      *struct {
		PreStop *struct {
			Sleep *struct {
				Seconds int `json:"seconds"`
			} `json:"sleep"`
		} `json:"preStop"`
	} `json:"lifecycle"`
	Resources struct {
		Requests map[string]string `json:"requests"`
		Limits   map[string]string `json:"limits"`
	} `json:"resources"`
	SecurityContext *struct {
		AllowPrivilegeEscalation *bool `json:"allowPrivilegeEscalation"`
		ReadOnlyRootFilesystem   *bool `json:"readOnlyRootFilesystem"`
		RunAsNonRoot             *bool `json:"runAsNonRoot"`
		Capabilities             struct {
			Drop []string `json:"drop"`
		} `json:"capabilities"`
	} `json:"securityContext"`
}

type probe struct {
	HTTPGet *struct {
		Path string          `json:"path"`
		Port json.RawMessage `json:"port"` // a number or a port name
	} `json:"httpGet"`
}

// manifests reads every object of every YAML file in deploy/kubernetes.
// A file that is not valid YAML, or has a duplicate key, fails the test.
func manifests(t *testing.T) []k8sObject {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(deployDir, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no manifests in %s", deployDir)
	var out []k8sObject
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for i, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(b), -1) {
			if strings.TrimSpace(regexp.MustCompile(`(?m)^\s*#.*$`).ReplaceAllString(doc, "")) == "" {
				continue
			}
			j, err := yaml.YAMLToJSONStrict([]byte(doc))
			require.NoError(t, err, "%s, document %d", f, i+1)
			var o k8sObject
			require.NoError(t, json.Unmarshal(j, &o), "%s, document %d", f, i+1)
			o.file = filepath.Base(f)
			o.raw = j
			require.NotEmpty(t, o.APIVersion, "%s: apiVersion", o.file)
			require.NotEmpty(t, o.Kind, "%s: kind", o.file)
			if o.Kind != "Kustomization" {
				require.NotEmpty(t, o.Metadata.Name, "%s: metadata.name", o.file)
			}
			out = append(out, o)
		}
	}
	return out
}

// one returns the only object of kind (and name, when not "").
func one(t *testing.T, objs []k8sObject, kind, name string) k8sObject {
	t.Helper()
	var found []k8sObject
	for _, o := range objs {
		if o.Kind == kind && (name == "" || o.Metadata.Name == name) {
			found = append(found, o)
		}
	}
	require.Len(t, found, 1, "want exactly one %s %s", kind, name)
	return found[0]
}

func spec[T any](t *testing.T, o k8sObject) T {
	t.Helper()
	var s T
	require.NoError(t, json.Unmarshal(o.Spec, &s), "%s %s spec", o.Kind, o.Metadata.Name)
	return s
}

// configVar is one environment variable Config reads, from its tags.
type configVar struct {
	name, def string
	needs     []string // subcommands that require it
}

// configVars lists the variables Config reads, from its envconfig tags:
// what the binary knows, straight from the source of truth.
func configVars(t *testing.T) map[string]configVar {
	t.Helper()
	out := map[string]configVar{}
	typ := reflect.TypeFor[Config]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		v := configVar{name: f.Tag.Get("envconfig"), def: f.Tag.Get("default")}
		require.NotEmpty(t, v.name, "field %s has no envconfig tag", f.Name)
		for _, sub := range []string{"serve", "remind", "watch"} {
			if strings.Contains(f.Tag.Get("needs"), sub) {
				v.needs = append(v.needs, sub)
			}
		}
		out[v.name] = v
	}
	return out
}

// isSecretVar reports whether a variable holds a credential, which must
// come from a Secret, never a ConfigMap or a literal.
func isSecretVar(name string) bool {
	return strings.Contains(name, "SECRET") || strings.Contains(name, "TOKEN") || strings.HasSuffix(name, "_KEY")
}

// dockerfile returns the instructions of the repository's Dockerfile, by
// instruction, with their arguments.
func dockerfile(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../../Dockerfile")
	require.NoError(t, err)
	out := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		instr, args, _ := strings.Cut(line, " ")
		out[strings.ToUpper(instr)] = append(out[strings.ToUpper(instr)], strings.TrimSpace(args))
	}
	return out
}

// workloads returns the bot's pod and the reminder job's pod.
func workloads(t *testing.T, objs []k8sObject) (botPod, remindPod podTemplate) {
	t.Helper()
	dep := spec[struct {
		Template podTemplate `json:"template"`
	}](t, one(t, objs, "Deployment", "recordsbot"))
	cron := spec[struct {
		JobTemplate struct {
			Spec struct {
				Template podTemplate `json:"template"`
			} `json:"spec"`
		} `json:"jobTemplate"`
	}](t, one(t, objs, "CronJob", "recordsbot-remind"))
	require.Len(t, dep.Template.Spec.Containers, 1)
	require.Len(t, cron.JobTemplate.Spec.Template.Spec.Containers, 1)
	return dep.Template, cron.JobTemplate.Spec.Template
}

func TestDeployManifestsParse(t *testing.T) {
	t.Parallel()
	objs := manifests(t)
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, o.Kind)
	}
	for _, want := range []string{"Deployment", "Service", "CronJob", "PodDisruptionBudget", "HorizontalPodAutoscaler", "Secret", "ConfigMap", "Ingress", "Kustomization"} {
		assert.Contains(t, kinds, want)
	}
	// The kustomization applies every manifest but the Secret template.
	kust := one(t, objs, "Kustomization", "")
	var k struct {
		Resources []string `json:"resources"`
		Images    []struct {
			Name string `json:"name"`
		} `json:"images"`
	}
	b, err := os.ReadFile(filepath.Join(deployDir, kust.file))
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, &k))
	for _, o := range objs {
		switch o.Kind {
		case "Kustomization":
		case "Secret":
			assert.NotContains(t, k.Resources, o.file, "applying the Secret template would overwrite the real Secret")
		case "Ingress":
			// An example: its host, class and TLS Secret are the admin's.
			assert.NotContains(t, k.Resources, o.file, "the example Ingress is applied once its host is filled in")
		default:
			assert.Contains(t, k.Resources, o.file)
		}
	}
	botPod, _ := workloads(t, objs)
	require.Len(t, k.Images, 1)
	repo, _, _ := strings.Cut(botPod.Spec.Containers[0].Image, ":")
	assert.Equal(t, repo, k.Images[0].Name, "the kustomization's image override names the image the workloads use")
}

func TestDeployMatchesTheBinary(t *testing.T) {
	t.Parallel()
	objs := manifests(t)
	botPod, remindPod := workloads(t, objs)
	bc, rc := botPod.Spec.Containers[0], remindPod.Spec.Containers[0]
	df := dockerfile(t)
	vars := configVars(t)

	// Image: one image for both, named for the binary the Dockerfile builds.
	assert.Equal(t, bc.Image, rc.Image, "the bot and the reminder job run the same image")
	assert.Regexp(t, `^[a-z0-9.-]+(:\d+)?/[a-z0-9._/-]*recordsbot:[\w.-]+$`, bc.Image)
	require.Len(t, df["ENTRYPOINT"], 1)
	assert.Equal(t, `["/recordsbot"]`, df["ENTRYPOINT"][0], "args below are given to the recordsbot binary")
	assert.Empty(t, bc.Command, "the image's ENTRYPOINT is the binary")
	assert.Empty(t, rc.Command)

	// Subcommands: ones the binary lists.
	var usageOut bytes.Buffer
	require.NoError(t, run(t.Context(), Config{}, []string{"help"}, strings.NewReader(""), &usageOut, &usageOut))
	for c, want := range map[*container]string{&bc: "serve", &rc: "remind"} {
		require.NotEmpty(t, c.Args)
		assert.Equal(t, want, c.Args[0])
		assert.Regexp(t, `(?m)^  `+c.Args[0]+` `, usageOut.String(), "recordsbot knows the subcommand %s", c.Args[0])
	}

	// Port: the binary's default PORT, the Dockerfile's, the container's,
	// and what the probes and the Service use.
	port, err := strconv.Atoi(vars["PORT"].def)
	require.NoError(t, err)
	require.Len(t, bc.Ports, 2, "PORT and the metrics port")
	require.Equal(t, "http", bc.Ports[0].Name)
	assert.Equal(t, port, bc.Ports[0].ContainerPort)
	assert.Contains(t, df["EXPOSE"], strconv.Itoa(port))
	assert.Contains(t, df["ENV"], "PORT="+strconv.Itoa(port))
	for _, e := range bc.Env {
		if e.Name == "PORT" {
			assert.Equal(t, strconv.Itoa(port), e.Value)
		}
	}
	portOK := func(raw json.RawMessage) bool {
		var name string
		if json.Unmarshal(raw, &name) == nil {
			return name == bc.Ports[0].Name
		}
		var n int
		return json.Unmarshal(raw, &n) == nil && n == port
	}
	svc := spec[struct {
		Selector map[string]string `json:"selector"`
		Ports    []struct {
			TargetPort json.RawMessage `json:"targetPort"`
		} `json:"ports"`
	}](t, one(t, objs, "Service", "recordsbot"))
	require.Len(t, svc.Ports, 1, "the public Service has PORT only, not the metrics port")
	assert.True(t, portOK(svc.Ports[0].TargetPort), "the Service targets the container's port, got %s", svc.Ports[0].TargetPort)
	for k, v := range svc.Selector {
		assert.Equal(t, v, botPod.Metadata.Labels[k], "the Service selects the bot's pods (%s)", k)
	}

	// Probes: the binary's routes, on its port.
	srv := bottest.Offline(t, bot.Config{}, bot.Deps{Ready: func() error { return nil }})
	for name, p := range map[string]*probe{"readiness": bc.ReadinessProbe, "liveness": bc.LivenessProbe} {
		require.NotNil(t, p, name)
		require.NotNil(t, p.HTTPGet, name)
		assert.True(t, portOK(p.HTTPGet.Port), "%s probe port %s", name, p.HTTPGet.Port)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, p.HTTPGet.Path, nil))
		assert.Equal(t, http.StatusOK, rec.Code, "%s probe %s is a route the binary serves", name, p.HTTPGet.Path)
	}
	assert.Equal(t, "/readyz", bc.ReadinessProbe.HTTPGet.Path, "readiness says whether the process can take requests")
	assert.Equal(t, "/healthz", bc.LivenessProbe.HTTPGet.Path, "liveness stays cheap")

	// User: the Dockerfile's non-root user.
	require.Len(t, df["USER"], 1)
	uid, gid, _ := strings.Cut(df["USER"][0], ":")
	for name, pod := range map[string]podTemplate{"bot": botPod, "remind": remindPod} {
		sc := pod.Spec.SecurityContext
		require.NotNil(t, sc.RunAsUser, name)
		assert.Equal(t, uid, strconv.Itoa(*sc.RunAsUser), "%s runs as the image's user", name)
		require.NotNil(t, sc.RunAsGroup, name)
		assert.Equal(t, gid, strconv.Itoa(*sc.RunAsGroup), name)
	}
}

func TestDeployEnvironmentIsWhatTheBinaryReads(t *testing.T) {
	t.Parallel()
	objs := manifests(t)
	botPod, remindPod := workloads(t, objs)
	vars := configVars(t)
	secret := one(t, objs, "Secret", "")

	for sub, c := range map[string]container{"serve": botPod.Spec.Containers[0], "remind": remindPod.Spec.Containers[0]} {
		env := map[string]bool{}
		for _, e := range c.Env {
			env[e.Name] = true
			if isSecretVar(e.Name) {
				require.NotNil(t, e.ValueFrom, "%s: %s must come from a Secret", sub, e.Name)
			}
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				ref := e.ValueFrom.SecretKeyRef
				assert.Equal(t, secret.Metadata.Name, ref.Name, "%s: %s names the Secret", sub, e.Name)
				assert.Contains(t, secretKeys(t, secret), ref.Key, "%s: the Secret template documents %s", sub, ref.Key)
			}
		}
		for _, ef := range c.EnvFrom {
			require.Nil(t, ef.SecretRef, "%s: secrets are named one by one, so a missing one fails loudly", sub)
			require.NotNil(t, ef.ConfigMapRef, sub)
			cm := one(t, objs, "ConfigMap", ef.ConfigMapRef.Name)
			for k := range cm.Data {
				env[k] = true
				assert.False(t, isSecretVar(k), "%s is a credential; it belongs in the Secret, not ConfigMap %s", k, cm.Metadata.Name)
			}
		}
		for name := range env {
			_, known := vars[name]
			assert.True(t, known, "%s: %s is not a variable recordsbot reads", sub, name)
		}
		for _, v := range vars {
			if slices.Contains(v.needs, sub) {
				assert.True(t, env[v.name], "%s needs %s", sub, v.name)
			}
		}
	}
	for k := range secretKeys(t, secret) {
		_, known := vars[k]
		assert.True(t, known, "the Secret template's %s is not a variable recordsbot reads", k)
	}
}

// secretKeys are the keys of the Secret template, commented-out optional
// ones included.
func secretKeys(t *testing.T, secret k8sObject) map[string]bool {
	t.Helper()
	keys := map[string]bool{}
	for k := range secret.StringData {
		keys[k] = true
	}
	b, err := os.ReadFile(filepath.Join(deployDir, secret.file))
	require.NoError(t, err)
	for _, m := range regexp.MustCompile(`(?m)^\s*#\s*([A-Z][A-Z0-9_]+):`).FindAllStringSubmatch(string(b), -1) {
		keys[m[1]] = true
	}
	return keys
}

func TestDeployRunsAtScale(t *testing.T) {
	t.Parallel()
	objs := manifests(t)
	botPod, remindPod := workloads(t, objs)
	dep := spec[struct {
		Replicas *int `json:"replicas"`
		Selector struct {
			MatchLabels map[string]string `json:"matchLabels"`
		} `json:"selector"`
	}](t, one(t, objs, "Deployment", "recordsbot"))
	require.NotNil(t, dep.Replicas)
	assert.GreaterOrEqual(t, *dep.Replicas, 2)

	hpa := spec[struct {
		ScaleTargetRef struct {
			Kind string `json:"kind"`
			Name string `json:"name"`
		} `json:"scaleTargetRef"`
		MinReplicas *int `json:"minReplicas"`
		MaxReplicas int  `json:"maxReplicas"`
	}](t, one(t, objs, "HorizontalPodAutoscaler", ""))
	assert.Equal(t, "Deployment", hpa.ScaleTargetRef.Kind)
	assert.Equal(t, "recordsbot", hpa.ScaleTargetRef.Name)
	require.NotNil(t, hpa.MinReplicas)
	assert.GreaterOrEqual(t, *hpa.MinReplicas, 2)
	assert.Greater(t, hpa.MaxReplicas, *hpa.MinReplicas)

	pdb := spec[struct {
		Selector struct {
			MatchLabels map[string]string `json:"matchLabels"`
		} `json:"selector"`
	}](t, one(t, objs, "PodDisruptionBudget", ""))
	assert.Equal(t, dep.Selector.MatchLabels, pdb.Selector.MatchLabels, "the budget covers the bot's pods")

	cron := spec[struct {
		ConcurrencyPolicy string `json:"concurrencyPolicy"`
		Schedule          string `json:"schedule"`
	}](t, one(t, objs, "CronJob", "recordsbot-remind"))
	assert.Equal(t, "Forbid", cron.ConcurrencyPolicy, "never two reminder runs at once")
	assert.Len(t, strings.Fields(cron.Schedule), 5)
	assert.Contains(t, []string{"Never", "OnFailure"}, remindPod.Spec.RestartPolicy)

	for name, pod := range map[string]podTemplate{"bot": botPod, "remind": remindPod} {
		c := pod.Spec.Containers[0]
		for _, r := range []string{"cpu", "memory"} {
			assert.NotEmpty(t, c.Resources.Requests[r], "%s requests %s", name, r)
			assert.NotEmpty(t, c.Resources.Limits[r], "%s limits %s", name, r)
		}
		require.NotNil(t, pod.Spec.SecurityContext.RunAsNonRoot, name)
		assert.True(t, *pod.Spec.SecurityContext.RunAsNonRoot, "%s runs as non-root", name)
		require.NotNil(t, c.SecurityContext, name)
		require.NotNil(t, c.SecurityContext.ReadOnlyRootFilesystem, name)
		assert.True(t, *c.SecurityContext.ReadOnlyRootFilesystem, "%s has a read-only root filesystem", name)
		require.NotNil(t, c.SecurityContext.AllowPrivilegeEscalation, name)
		assert.False(t, *c.SecurityContext.AllowPrivilegeEscalation, name)
		assert.Contains(t, c.SecurityContext.Capabilities.Drop, "ALL", name)
		require.NotNil(t, pod.Spec.AutomountServiceAccountToken, name)
		assert.False(t, *pod.Spec.AutomountServiceAccountToken, "%s needs no Kubernetes API token", name)
	}

	// Termination: the preStop pause and the whole SHUTDOWN_GRACE fit in
	// the grace Kubernetes gives before SIGKILL.
	grace, err := time.ParseDuration(configVars(t)["SHUTDOWN_GRACE"].def)
	require.NoError(t, err)
	for _, o := range objs {
		if o.Kind == "ConfigMap" {
			if v, ok := o.Data["SHUTDOWN_GRACE"]; ok {
				grace, err = time.ParseDuration(v)
				require.NoError(t, err)
			}
		}
	}
	bc := botPod.Spec.Containers[0]
	preStop := 0
	if bc.Lifecycle != nil && bc.Lifecycle.PreStop != nil && bc.Lifecycle.PreStop.Sleep != nil {
		preStop = bc.Lifecycle.PreStop.Sleep.Seconds
	}
	require.NotNil(t, botPod.Spec.TerminationGracePeriodSeconds)
	assert.Greater(t, time.Duration(*botPod.Spec.TerminationGracePeriodSeconds)*time.Second, time.Duration(preStop)*time.Second+grace,
		"terminationGracePeriodSeconds leaves room for the preStop sleep and SHUTDOWN_GRACE")
}

// TestDeployConfigIsAccepted loads the ConfigMap and the Secret template
// into the environment and runs the binary's own configuration path on it:
// envconfig, then the checks serve and remind make at start-up. envconfig
// reads only the real environment, hence t.Setenv, which rules out
// t.Parallel here.
func TestDeployConfigIsAccepted(t *testing.T) {
	objs := manifests(t)
	for _, o := range objs {
		if o.Kind == "ConfigMap" {
			for k, v := range o.Data {
				t.Setenv(k, v)
			}
		}
	}
	for k, v := range one(t, objs, "Secret", "").StringData {
		t.Setenv(k, v)
	}
	t.Setenv("PORT", "3000")
	var cfg Config
	require.NoError(t, envconfig.Process("", &cfg))

	for _, sub := range []string{"serve", "remind", "watch"} {
		assert.NoError(t, cfg.check(sub), sub)
	}
	assert.Equal(t, "json", cfg.LogFormat, "structured logs for a cluster's log pipeline")
}

// notInConfigMap are the variables `recordsbot help` lists that the
// ConfigMap leaves to another place, each for a reason.
var notInConfigMap = map[string]string{
	"PORT":         "deployment.yaml sets it next to containerPort, which must match",
	"SANDBOX_KEYS": "the sandbox is a local stand-in for the records service, never deployed",
}

// TestDeployConfigMapListsEveryVariable keeps the ConfigMap a complete
// list for an admin: every variable `recordsbot help` lists is a key of it
// (commented out where optional), or in the Secret template when it is a
// credential, or named in notInConfigMap with its reason. Engineers add
// variables often; the failure says exactly what to add.
func TestDeployConfigMapListsEveryVariable(t *testing.T) {
	t.Parallel()
	objs := manifests(t)
	cm := one(t, objs, "ConfigMap", "recordsbot")
	b, err := os.ReadFile(filepath.Join(deployDir, cm.file))
	require.NoError(t, err)
	listed := map[string]bool{}
	for k := range cm.Data {
		listed[k] = true
	}
	for _, m := range regexp.MustCompile(`(?m)^\s*#\s*([A-Z][A-Z0-9_]+):`).FindAllStringSubmatch(string(b), -1) {
		listed[m[1]] = true
	}
	secret := secretKeys(t, one(t, objs, "Secret", ""))
	botPod, _ := workloads(t, objs)
	deployEnv := map[string]bool{}
	for _, e := range botPod.Spec.Containers[0].Env {
		deployEnv[e.Name] = true
	}

	typ := reflect.TypeFor[Config]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name := f.Tag.Get("envconfig")
		switch {
		case name == "":
			continue
		case secret[name]:
			assert.False(t, listed[name], "%s is in the Secret template; take it out of %s", name, cm.file)
			continue
		case isSecretVar(name):
			t.Errorf("%s is a credential: add it to secret-template.yaml (commented out when optional), not to %s", name, cm.file)
			continue
		case notInConfigMap[name] != "":
			if name == "PORT" {
				assert.True(t, deployEnv[name], "deployment.yaml sets PORT")
			}
			continue
		}
		if listed[name] {
			continue
		}
		def := f.Tag.Get("default")
		line := fmt.Sprintf("  # %s: %q", name, def)
		if f.Tag.Get("needs") != "" {
			line = fmt.Sprintf("  %s: %q", name, def)
		}
		t.Errorf("deploy/kubernetes/%s lacks %s, which `recordsbot help` lists. Add under data:, commented out when optional:\n  # %s\n%s",
			cm.file, name, f.Tag.Get("desc"), line)
	}
}

// TestDeployMetricsPort: Prometheus reads /metrics on the metrics
// listener, METRICS_ADDR, never on PORT: the container names its port
// "metrics" at METRICS_ADDR's default, the scrape annotations and the
// recordsbot-metrics Service point there, the public Service (the one the
// Ingress routes) and the Dockerfile's EXPOSE leave it out, and the
// binary's PORT answers /metrics with 404.
func TestDeployMetricsPort(t *testing.T) {
	t.Parallel()
	objs := manifests(t)
	botPod, _ := workloads(t, objs)
	bc := botPod.Spec.Containers[0]
	_, def, err := net.SplitHostPort(configVars(t)["METRICS_ADDR"].def)
	require.NoError(t, err)
	metricsPort, err := strconv.Atoi(def)
	require.NoError(t, err)

	named := map[string]int{}
	for _, p := range bc.Ports {
		named[p.Name] = p.ContainerPort
	}
	assert.Equal(t, metricsPort, named["metrics"], "the container port named metrics is METRICS_ADDR's")
	assert.NotEqual(t, named["http"], named["metrics"])
	ann := botPod.Metadata.Annotations
	assert.Equal(t, "true", ann["prometheus.io/scrape"])
	assert.Equal(t, strconv.Itoa(metricsPort), ann["prometheus.io/port"], "Prometheus scrapes the metrics port")
	assert.Equal(t, "/metrics", ann["prometheus.io/path"])

	type servicePorts struct {
		Selector map[string]string `json:"selector"`
		Ports    []struct {
			Name       string          `json:"name"`
			Port       int             `json:"port"`
			TargetPort json.RawMessage `json:"targetPort"`
		} `json:"ports"`
	}
	public := spec[servicePorts](t, one(t, objs, "Service", "recordsbot"))
	for _, p := range public.Ports {
		assert.NotEqual(t, `"metrics"`, string(p.TargetPort), "the public Service has no metrics port")
		assert.NotEqual(t, strconv.Itoa(metricsPort), string(p.TargetPort))
	}
	ms := one(t, objs, "Service", "recordsbot-metrics")
	msvc := spec[servicePorts](t, ms)
	require.Len(t, msvc.Ports, 1)
	assert.Equal(t, `"metrics"`, string(msvc.Ports[0].TargetPort), "the metrics Service targets the named port")
	assert.Equal(t, strconv.Itoa(msvc.Ports[0].Port), ms.Metadata.Annotations["prometheus.io/port"])
	for k, v := range msvc.Selector {
		assert.Equal(t, v, botPod.Metadata.Labels[k], "the metrics Service selects the bot's pods (%s)", k)
	}
	ing := string(one(t, objs, "Ingress", "recordsbot").raw)
	assert.NotContains(t, ing, "recordsbot-metrics", "no ingress routes the metrics Service")

	assert.NotContains(t, strings.Join(dockerfile(t)["EXPOSE"], " "), strconv.Itoa(metricsPort), "EXPOSE leaves the metrics port out (docker run -P publishes every exposed port)")

	srv := bottest.Offline(t, bot.Config{}, bot.Deps{Metrics: metrics.New()})
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), http.MethodGet, "/metrics", nil))
	assert.Equal(t, http.StatusNotFound, rec.Code, "PORT's routes have no /metrics")
}
