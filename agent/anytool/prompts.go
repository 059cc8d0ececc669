package anytool

import (
	"fmt"
	"strings"
)

// The prompts below are AnyTool's appendix B (Tables 16-22) in our words:
// what each agent is for, which functions it has, and what it must not do.

// metaPrompt is the meta-agent's system prompt (Table 16).
func metaPrompt(categories []string) string {
	return "You are an API search agent with access to a database of APIs, organised into these categories: " +
		strings.Join(categories, ", ") + ".\n" +
		"Your job is to find every category that may hold what the user needs. " +
		"Call get_tools_in_category to see the tools of a category, and get_tool_descriptions when a tool's name does not say what it does. " +
		"Call create_agent_category_level to hand one category to a new agent; each agent takes exactly one category, and you may create several agents. " +
		"Explore widely: the answer often sits in a category you would not expect. " +
		"Do not answer the query yourself. When every relevant category has an agent, call finish_search.\n" +
		"At each step, say in at most three sentences what you see and what you do next, and call a function."
}

// categoryPrompt is a category agent's system prompt (Table 17).
func categoryPrompt(category string) string {
	return "You are an API search agent for the category " + quote(category) + " of an API database, in which each category holds tools and each tool holds APIs.\n" +
		"Your job is to find the tools of this category that may serve the user. Call get_tools_in_category to list them and get_tool_descriptions when a name is unclear. " +
		"Call create_agent_tool_level to hand a set of related tools (at most " + fmt.Sprint(MaxToolsPerAgent) + ") to a new agent; you may create several agents. " +
		"Do not answer the query yourself. When you have handed out every tool that may help, or found that none of this category's tools fit the query, call finish_search.\n" +
		"Act by calling functions, and keep your reasoning to three sentences."
}

// toolPrompt is a tool agent's system prompt (Table 18).
func toolPrompt(category string, tools []string) string {
	return "You are an API search agent for the tools " + quoteAll(tools) + " of the category " + quote(category) + " of an API database.\n" +
		"Your job is to find the APIs of these tools that may serve the user. Call get_APIs_in_tool to list a tool's APIs and get_API_detail to read their documentation. " +
		"Call add_API_into_API_pool with the names of the APIs that fit, then check_if_request_solvable to learn whether the pool now covers the query. " +
		"When you have looked at every API, or none of them fits, call finish_search. You may later hear how the APIs fared.\n" +
		"Act by calling functions, and keep your reasoning to three sentences."
}

// Re-activation notes (Tables 20-22): the failure's reason, added to an
// unfinished agent's history before it is asked to go on.
func reactivateTool(reason string) string {
	return "The APIs found so far did not solve the query: " + reason + "\n" +
		"Look at this result and search for more APIs. These tools may simply lack a fitting API; then call finish_search. Never make up tool or API names."
}

func reactivateCategory(reason string) string {
	return "The APIs found so far did not solve the query: " + reason + "\nHand tools you have not explored yet to new agents."
}

func reactivateMeta(reason string) string {
	return "The APIs found so far did not solve the query: " + reason + "\nHand categories you have not explored yet to new agents."
}

// solvablePrompt asks whether the pool covers the query (check_if_request_solvable).
const solvablePrompt = "You judge whether a set of APIs is enough to answer a user's query. " +
	"You are given the query and the documentation of the APIs. Answer with one word, True if calling these APIs can answer every part of the query, " +
	"False if some part needs an API that is not among them; after the word you may give one sentence of reason."

// solverNote is prepended to the solver's own system prompt (Table 19's
// addition to ToolLLM's): a give-up names its reason and the functions
// that failed, which self-reflection removes from the pool.
const solverNote = "If you cannot solve the task, or can solve it only in part, give up and say why in final_answer, " +
	"naming each function that failed or does not fit the query."

func quote(s string) string { return "'" + s + "'" }

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quote(s)
	}
	return strings.Join(q, ", ")
}
