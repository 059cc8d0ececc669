package deps

import "github.com/understudy/understudy/toolset"

// InferComparingAll is Infer offering every API to every parameter
// description, without the index: what the index must reproduce.
func InferComparingAll(c *toolset.Catalog) []Edge { return infer(c, true) }
