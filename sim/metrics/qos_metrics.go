package metrics

// The admission and charge metrics (QoPS, Islam et al. 2004), for tables
// and figures; under policies without admission control every job is
// admitted and the charges are the processor-seconds and 0.
func init() {
	Metrics = append(Metrics,
		Metric{Name: "acceptance", Title: "jobs accepted (%)", Format: "%.1f",
			Value: func(a *Aggregate, _ int) float64 { return 100 * float64(a.Admitted) / float64(a.Count) }},
		Metric{Name: "admitted", Title: "jobs admitted", Format: "%.0f", Counts: true,
			Value: func(a *Aggregate, _ int) float64 { return float64(a.Admitted) }},
		Metric{Name: "resource_charge", Title: "resource charge (processor-seconds)", Format: "%.4g", Counts: true,
			Value: func(a *Aggregate, _ int) float64 { return a.ResourceCharge }},
		Metric{Name: "qos_charge", Title: "QoS charge", Format: "%.4g", Counts: true,
			Value: func(a *Aggregate, _ int) float64 { return a.QoSCharge }},
		Metric{Name: "deadline_misses", Title: "admitted jobs that missed their deadline", Format: "%.0f", Counts: true,
			Value: func(a *Aggregate, _ int) float64 { return float64(a.DeadlineMisses) }},
	)
}
