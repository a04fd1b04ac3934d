package preempt

import "fmt"

// paperSDavg holds the mean bounded slowdown of each ss16 category under NS
// that Kettimuthu et al. (2005) print in Table 4 (CTC, 430 processors) and
// Table 5 (SDSC, 128 processors), in the order of [ss16Labels].
var paperSDavg = map[int][16]float64{
	430: {2.6, 4.76, 13.01, 34.07, 1.26, 1.76, 3.04, 7.14, 1.13, 1.43, 1.88, 1.63, 1.03, 1.05, 1.09, 1.15},
	128: {2.53, 14.41, 37.78, 113.31, 1.15, 2.43, 4.83, 15.56, 1.19, 1.24, 1.96, 2.79, 1.03, 1.09, 1.18, 1.43},
}

// ss16Labels are the ss16 categories in the order of the paper's tables.
var ss16Labels = [16]string{
	"VS Seq", "VS N", "VS W", "VS VW", "S Seq", "S N", "S W", "S VW",
	"L Seq", "L N", "L W", "L VW", "VL Seq", "VL N", "VL W", "VL VW",
}

// PaperBaseline returns the TSS baseline printed by Kettimuthu et al.
// (2005) for a machine of procs processors: their Table 4 for CTC (430)
// and Table 5 for SDSC (128), by ss16 label. See [SSConfig.TSSPaperLimits].
func PaperBaseline(procs int) (map[string]float64, error) {
	v, ok := paperSDavg[procs]
	if !ok {
		return nil, fmt.Errorf("%w: the paper's TSS limits cover CTC on 430 processors and SDSC on 128, not %d", ErrInvalidConfig, procs)
	}
	out := make(map[string]float64, len(v))
	for i, l := range ss16Labels {
		out[l] = v[i]
	}
	return out, nil
}
