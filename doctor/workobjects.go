package doctor

// unfurlsCheck says which unfurls the workspace gets, and how to have
// Work Object cards. The app setting that shows them ("Work Object
// Previews", with the entity types chosen) has no manifest key and no
// method reads it (https://docs.slack.dev/messaging/work-objects-implementation),
// so WORK_OBJECTS is how the bot knows, and doctor can only say what it
// says.
func unfurlsCheck(set Settings) check {
	const how = "api.slack.com/apps → your app → Work Object Previews: turn it on and choose Task and Content item (no manifest key sets it)"
	if set.WorkObjects {
		return ok("WORK_OBJECTS is on: minutes and action links unfurl as Work Object cards, and a click opens a side panel drawn for whoever clicked",
			"Slack shows the cards only while the app's Work Object Previews setting is on; doctor cannot read it: "+how,
			"the app's bot events must include entity_details_requested (manifest.yaml has it) for the side panel")
	}
	return skipped("WORK_OBJECTS not set: minutes links unfurl as classic previews, action links stay plain links; for Work Object cards with a side panel, " + how + ", then set WORK_OBJECTS=true")
}
