package sampleorg

import (
	"github.com/recordsbot/recordsbot/apiclient/recordsfake"
	"github.com/recordsbot/recordsbot/internal/orgsim"
)

// Org is the sample organisation: ten people with Slack IDs "U0" + their
// first name in capitals (Alice Adams is alice@example.org, U0ALICE), four
// committees meeting every two or three weeks over the six months before
// now, with two meetings to come, agendas, minutes in every status, and
// about fifty actions whose deadlines are set relative to now so that some
// are overdue and some due within three days. orgsim.Build turns it into
// records; each call returns a new value, free to change.
//
// It is the one organisation of the tests, the demo and the sandbox: the
// tests' dataset (testworld.Dataset) is it as it is, the demo's story
// (package demo) it with one more hidden draft, so there is one set of
// people, committees and actions to keep. Tests assert on its people
// (alice, bob, carol…), action IDs (FIN-2026-10/1…) and committees, so
// edit it as a fixture, with the tests and the demo's story tests that
// name what you change. The machinery that turns it into records
// (schedule, agendas, minutes, deadlines) is package orgsim's.
func Org() orgsim.Org {
	return orgsim.Org{People: worldPeople(), Committees: worldCommittees(), Actions: worldActionSpecs()}
}

func worldPeople() []recordsfake.Person {
	return orgsim.People(
		"Alice Adams", "Bob Brown", "Carol Chen", "David Dlamini", "Erin Evans",
		"Farid Farouk", "Grace Gómez", "Hiro Hayashi", "Isla Irwin", "Jamal Johnson",
	)
}

// worldActionSpecs are the organisation's actions. Their deadlines are
// spread so that on any day some are overdue and some due within three
// days, and their titles carry the Markdown, mentions and HTML a renderer
// must escape. Tests look several up by ID or title, so change one only
// with the tests that name it.
func worldActionSpecs() []orgsim.ActionSpec {
	return []orgsim.ActionSpec{
		{Committee: "FIN", Person: "Alice", Status: "open", Days: -3, Title: "Circulate the revised Q3 budget forecast to members"},
		{Committee: "FIN", Person: "Bob", Status: "in_progress", Days: -10, Title: "Reconcile the petty cash float with the bank statement"},
		{Committee: "FIN", Person: "David", Status: "open", Days: 2, Title: "Obtain three quotes for the external audit"},
		{Committee: "FIN", Person: "Hiro", Status: "complete", Days: -20, Title: "Update the reserves policy with the new three-month target"},
		{Committee: "FIN", Person: "Jamal", Status: "open", Days: 14, Title: "Draft the grant application budget for the Lottery fund"},
		{Committee: "FIN", Person: "Alice", Status: "in_progress", Days: 1, Title: "Prepare the variance report for the trustees"},
		{Committee: "FIN", Person: "Bob", Status: "open", Days: 30, Title: "Review the bank mandate signatories after the AGM"},
		{Committee: "FIN", Person: "Hiro", Status: "deferred", Days: 45, Title: "Investigate switching to a cloud accounting package"},
		{Committee: "FIN", Person: "Jamal", Status: "cancelled", Days: -5, Title: "Chase the overdue invoice from the catering supplier"},
		{Committee: "FIN", Person: "David", Status: "open", Due: orgsim.DueNone, Title: "Set up a shared folder for signed expense claims"},
		{Committee: "FIN", Person: "Alice", Status: "open", Days: 2, Due: orgsim.DueTime, Title: "Send the signed accounts to the Charity Commission before the 5 pm cut-off"},
		{Committee: "FIN", Person: "Bob", Status: "complete", Days: -2, Title: "Pay the Q2 insurance premium"},
		{Committee: "FIN", Person: "Hiro", Status: "in_progress", Days: 7, Title: "Fix the *Budget v2* spreadsheet's _Q3_ tab formulas"},

		{Committee: "GOV", Person: "Carol", Status: "open", Days: -7, Title: "Publish the updated conflict of interest register"},
		{Committee: "GOV", Person: "Farid", Status: "in_progress", Days: 3, Title: "Redraft standing orders section 4 (quorum) for consultation"},
		{Committee: "GOV", Person: "Isla", Status: "open", Days: 21, Title: "Organise the trustee induction for the two new members"},
		{Committee: "GOV", Person: "Alice", Status: "open", Days: -1, Title: "Return signed code of conduct declarations"},
		{Committee: "GOV", Person: "Carol", Status: "complete", Days: -12, Title: "Circulate the AGM notice and proxy forms"},
		{Committee: "GOV", Person: "Farid", Status: "open", Days: 10, Title: "Review the safeguarding policy against the 2026 guidance"},
		{Committee: "GOV", Person: "Isla", Status: "deferred", Due: orgsim.DueNone, Title: "Scope a skills audit of the board"},
		{Committee: "GOV", Person: "Carol", Status: "in_progress", Days: 0, Title: "Confirm the date of the board away day"},
		{Committee: "GOV", Person: "Alice", Status: "open", Days: 60, Title: "Benchmark the trustee expenses policy against similar charities"},
		{Committee: "GOV", Person: "Farid", Status: "cancelled", Days: 5, Title: "Commission a governance review from an external consultant"},
		{Committee: "GOV", Person: "Isla", Status: "open", Days: -14, Title: "File the annual return with Companies House"},

		{Committee: "FAC", Person: "David", Status: "open", Days: -4, Title: "Get the fire alarm service certificate renewed"},
		{Committee: "FAC", Person: "Erin", Status: "in_progress", Days: 2, Title: "Book contractors for the roof gutter clearance"},
		{Committee: "FAC", Person: "Grace", Status: "open", Days: 28, Title: "Survey the accessibility of the side entrance ramp"},
		{Committee: "FAC", Person: "Hiro", Status: "complete", Days: -9, Title: "Replace the broken lock on the storeroom door"},
		{Committee: "FAC", Person: "Erin", Status: "open", Days: 12, Title: "Collect quotes for LED lighting in the main hall"},
		{Committee: "FAC", Person: "David", Status: "in_progress", Days: -2, Title: "Update the asbestos register after the survey"},
		{Committee: "FAC", Person: "Grace", Status: "deferred", Days: 90, Title: "Plan the car park resurfacing"},
		{Committee: "FAC", Person: "Erin", Status: "open", Due: orgsim.DueNone, Title: "Label the circuit breakers in the kitchen"},
		{Committee: "FAC", Person: "Hiro", Status: "open", Days: 3, Title: "Arrange PAT testing for all portable appliances"},
		{Committee: "FAC", Person: "David", Status: "complete", Days: -30, Title: "Renew the cleaning contract"},
		{Committee: "FAC", Person: "Grace", Status: "open", Days: 6, Title: "Agree hire rates for the community room with Outreach"},

		{Committee: "OUT", Person: "Grace", Status: "open", Days: 1, Title: "Check <!channel> & <@U123> mentions in the newsletter"},
		{Committee: "OUT", Person: "Isla", Status: "in_progress", Days: -6, Title: "Finalise the volunteer recruitment leaflet"},
		{Committee: "OUT", Person: "Jamal", Status: "open", Days: 9, Title: "Book stalls for the summer fair"},
		{Committee: "OUT", Person: "Bob", Status: "open", Days: -8, Title: "Send thank-you letters to the festival sponsors"},
		{Committee: "OUT", Person: "Erin", Status: "complete", Days: -3, Title: "Post the open-day photos on the website"},
		{Committee: "OUT", Person: "Grace", Status: "in_progress", Days: 18, Title: "Set up the youth forum mailing list"},
		{Committee: "OUT", Person: "Isla", Status: "open", Days: 4, Title: "Translate the welcome pack into Polish and Urdu"},
		{Committee: "OUT", Person: "Jamal", Status: "deferred", Days: 40, Title: "Explore a partnership with the local library"},
		{Committee: "OUT", Person: "Bob", Status: "cancelled", Due: orgsim.DueNone, Title: "Print 500 flyers for the quiz night"},
		{Committee: "OUT", Person: "Grace", Status: "open", Days: 35, Title: "Prepare the case studies for the annual impact report"},
		{Committee: "OUT", Person: "Erin", Status: "open", Days: 2, Title: "Reply to the school's request for a careers-day speaker"},

		{Committee: "FIN", Person: "Jamal", Status: "in_progress", Days: 5, ID: "1187", Title: "Set out the 2027 membership fee proposal"},
		{Committee: "GOV", Person: "Alice", Status: "complete", Days: -16, ID: "1203", Title: "Update the website's <b>Trustees</b> page & photos"},
		{Committee: "FAC", Person: "Hiro", Status: "open", Days: -11, ID: "1219", Title: "Service the boiler before the heating season"},
		{Person: "Carol", Status: "open", Days: 8, ID: "1240", Title: "Renew the organisation's data protection registration"},
	}
}
