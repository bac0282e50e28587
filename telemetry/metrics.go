package telemetry

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/thea-harness/thea/engine"
)

// Metrics is one process's Prometheus registry of Thea's metrics (its own,
// never the global default one), fed by a sink on each task's event
// stream. One Metrics serves every task of a session.
type Metrics struct {
	reg      *prometheus.Registry
	counters map[string]*prometheus.CounterVec
	hists    map[string]*prometheus.HistogramVec
	gauges   map[string]*prometheus.GaugeVec

	// The body's uncertainty outlives a task: it is the session's.
	mu             sync.Mutex
	uncertainSince time.Time // zero while the body is certain
}

// NewMetrics builds the registry with every metric of definitions().
func NewMetrics() (*Metrics, error) {
	m := &Metrics{reg: prometheus.NewRegistry(), counters: map[string]*prometheus.CounterVec{},
		hists: map[string]*prometheus.HistogramVec{}, gauges: map[string]*prometheus.GaugeVec{}}
	for _, d := range definitions() {
		var c prometheus.Collector
		switch d.Type {
		case "counter":
			v := prometheus.NewCounterVec(prometheus.CounterOpts{Name: d.Name, Help: d.Help}, d.Labels)
			m.counters[d.Name], c = v, v
		case "histogram":
			v := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: d.Name, Help: d.Help, Buckets: d.Buckets}, d.Labels)
			m.hists[d.Name], c = v, v
		case "gauge":
			v := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: d.Name, Help: d.Help}, d.Labels)
			m.gauges[d.Name], c = v, v
		default:
			return nil, fmt.Errorf("metric %s: unknown type %q", d.Name, d.Type)
		}
		if err := m.reg.Register(c); err != nil {
			return nil, fmt.Errorf("registering metric %s: %w", d.Name, err)
		}
	}
	// Unlabelled series exist from the start, so a query sees 0, not nothing.
	for _, name := range []string{mTurns, mToolsNotRun, mRestarts, mUncertainSeconds, mSinkErrors} {
		m.counters[name].WithLabelValues()
	}
	m.gauges[mUncertain].WithLabelValues().Set(0)
	return m, nil
}

// Registry is the registry the metrics live in (for tests and for a
// process that adds its own collectors).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in Prometheus's exposition formats.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Sink is an engine.SinkFactory: each task's events feed the registry.
func (m *Metrics) Sink(engine.TaskInfo) (engine.Sink, error) {
	return &metricsSink{m: m, calls: map[string]callStart{}}, nil
}

func (m *Metrics) inc(name string, labels ...string) { m.add(name, 1, labels...) }

func (m *Metrics) add(name string, v float64, labels ...string) {
	m.counters[name].WithLabelValues(labels...).Add(v)
}

func (m *Metrics) observe(name string, seconds float64, labels ...string) {
	m.hists[name].WithLabelValues(labels...).Observe(seconds)
}

// setUncertain records the body turning uncertain, or certain again; the
// time it was uncertain is counted when it clears.
func (m *Metrics) setUncertain(uncertain bool, at time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case uncertain && m.uncertainSince.IsZero():
		m.uncertainSince = at
		m.gauges[mUncertain].WithLabelValues().Set(1)
	case !uncertain && !m.uncertainSince.IsZero():
		if d := at.Sub(m.uncertainSince); d > 0 {
			m.add(mUncertainSeconds, d.Seconds())
		}
		m.uncertainSince = time.Time{}
		m.gauges[mUncertain].WithLabelValues().Set(0)
	}
}
