package toolbench

import (
	"fmt"
	"slices"
)

// modelNote says what the model retrievers' extra columns mean.
const modelNote = "accuracy (model retrievers): the share of queries whose first m selected APIs are all relevant, m the number of relevant APIs " +
	"(Self-Assist's retrieval accuracy, top-1 for a one-API query); recall: the mean share of a query's relevant APIs in the whole selection (AnyTool's pool)."

// modelScores adds accuracy and recall to a model retriever's row.
func modelScores(row RetrievalRow, model bool, rks []*Ranking) RetrievalRow {
	if !model {
		return row
	}
	row.Model = true
	n := 0
	for _, rk := range rks {
		if rk.Skipped != "" || len(rk.Relevant) == 0 {
			continue
		}
		n++
		sel := rk.Selected[row.Retriever]
		if sel == nil {
			sel = rk.Ranked[row.Retriever]
		}
		m := len(rk.Relevant)
		if len(sel) >= m && !slices.ContainsFunc(sel[:m], func(id string) bool { return !slices.Contains(rk.Relevant, id) }) {
			row.Accuracy++
		}
		row.Recall += poolRecall(sel, rk.Relevant)
	}
	if n > 0 {
		row.Accuracy /= float64(n)
		row.Recall /= float64(n)
	}
	return row
}

func (r *RetrievalReport) hasModels() bool {
	return slices.ContainsFunc(r.Rows, func(row RetrievalRow) bool { return row.Model })
}

func modelCells(row RetrievalRow) string {
	if !row.Model {
		return "\t-\t-"
	}
	return fmt.Sprintf("\t%.1f\t%.1f", 100*row.Accuracy, 100*row.Recall)
}
