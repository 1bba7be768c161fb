package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	sigsjson "sigs.k8s.io/json"
)

// The Kubernetes API types are imported by tests only, so they are not in
// the binary.

// apiTypes are the kinds deploy/kubernetes may hold, by apiVersion and
// kind, each as the API server's own Go type. A kind not listed fails:
// add it here when a manifest needs it.
var apiTypes = map[string]func() any{
	"v1/ConfigMap":                                  func() any { return new(corev1.ConfigMap) },
	"v1/Secret":                                     func() any { return new(corev1.Secret) },
	"v1/Service":                                    func() any { return new(corev1.Service) },
	"apps/v1/Deployment":                            func() any { return new(appsv1.Deployment) },
	"batch/v1/CronJob":                              func() any { return new(batchv1.CronJob) },
	"policy/v1/PodDisruptionBudget":                 func() any { return new(policyv1.PodDisruptionBudget) },
	"autoscaling/v2/HorizontalPodAutoscaler":        func() any { return new(autoscalingv2.HorizontalPodAutoscaler) },
	"networking.k8s.io/v1/Ingress":                  func() any { return new(networkingv1.Ingress) },
	"kustomize.config.k8s.io/v1beta1/Kustomization": func() any { return new(kustomization) },
}

// kustomization is the part of kustomize's Kustomization the manifests
// use. kustomize's own types would bring its module in for four fields;
// a field used here that is not below fails the test, so add it.
type kustomization struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Labels     []struct {
		Pairs            map[string]string `json:"pairs"`
		IncludeSelectors bool              `json:"includeSelectors,omitempty"`
		IncludeTemplates bool              `json:"includeTemplates,omitempty"`
	} `json:"labels,omitempty"`
	Resources []string `json:"resources"`
	Images    []struct {
		Name    string `json:"name"`
		NewName string `json:"newName,omitempty"`
		NewTag  string `json:"newTag,omitempty"`
		Digest  string `json:"digest,omitempty"`
	} `json:"images,omitempty"`
}

// decodeStrict decodes one manifest as the API server does with
// fieldValidation=Strict (sigs.k8s.io/json, which Kubernetes uses): field
// names match case-sensitively, and an unknown or duplicated field, or a
// value of the wrong type, is an error.
func decodeStrict(apiVersion, kind string, doc []byte) (any, error) {
	newObj, ok := apiTypes[apiVersion+"/"+kind]
	if !ok {
		return nil, fmt.Errorf("apiVersion %s kind %s is not a type this test knows", apiVersion, kind)
	}
	obj := newObj()
	strict, err := sigsjson.UnmarshalStrict(doc, obj)
	if err != nil {
		return nil, err
	}
	return obj, errors.Join(strict...)
}

// TestDeployManifestsAreValidKubernetes decodes every manifest under
// deploy/kubernetes strictly into the Kubernetes API's own types, so a
// misspelt or misplaced field fails here rather than being dropped, or
// refused, by kubectl apply.
func TestDeployManifestsAreValidKubernetes(t *testing.T) {
	t.Parallel()
	for _, o := range manifests(t) {
		t.Run(o.file+"/"+o.Kind, func(t *testing.T) {
			t.Parallel()
			_, err := decodeStrict(o.APIVersion, o.Kind, o.raw)
			assert.NoError(t, err, "%s is not a valid %s %s", o.file, o.APIVersion, o.Kind)
		})
	}
}

// The check is only worth having if it fails: a typo'd field, a field in
// the wrong place, a value of the wrong type and a wrong case all fail.
func TestDecodeStrictRefusesTypos(t *testing.T) {
	t.Parallel()
	var dep k8sObject
	for _, o := range manifests(t) {
		if o.Kind == "Deployment" {
			dep = o
		}
	}
	require.NotEmpty(t, dep.raw)
	_, err := decodeStrict(dep.APIVersion, dep.Kind, dep.raw)
	require.NoError(t, err)
	for _, tt := range []struct{ name, from, to, want string }{
		{"misspelt", `"readinessProbe":`, `"readynessProbe":`, `unknown field "spec.template.spec.containers[0].readynessProbe"`},
		{"wrong case", `"containerPort":`, `"containerport":`, `unknown field "spec.template.spec.containers[0].ports[0].containerport"`},
		{"misplaced", `"terminationGracePeriodSeconds":`, `"replicas":3,"terminationGracePeriodSeconds":`, `unknown field "spec.template.spec.replicas"`},
		{"wrong type", `"replicas":2`, `"replicas":"2"`, `cannot unmarshal string into Go struct field`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Contains(t, string(dep.raw), tt.from)
			bad := strings.Replace(string(dep.raw), tt.from, tt.to, 1)
			_, err := decodeStrict(dep.APIVersion, dep.Kind, []byte(bad))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	_, err = decodeStrict("apps/v1beta1", "Deployment", dep.raw)
	assert.ErrorContains(t, err, "not a type this test knows", "an API version Kubernetes 1.30 no longer serves fails")
}
