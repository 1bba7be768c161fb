package demo

// demoCommittees returns the committees of the demo organisation and the
// topics their agendas rotate through. Members index demoPeople.
func demoCommittees() []demoCommittee {
	return []demoCommittee{
		{
			name: "Finance", code: "FIN", location: "Committee Room 2, Town Hall",
			hour: 17, members: []int{0, 1, 3, 7, 9},
			lastPast: 4, upcoming: 10, gaps: []int{14, 21},
			// The latest draft is still hidden, so the demo's `publish
			// finance` has one to publish; the one before is a published
			// draft, so /minutes finance shows what a draft looks like.
			recent:  []string{"draft", "published_draft"},
			htmlAgo: -1, urlAgo: 2,
			topics: []demoTopic{
				{
					title:       "Quarterly budget review",
					description: "Income and expenditure against budget for the quarter, and the year-end forecast.",
					discussion: "The treasurer presented the management accounts for the quarter. Income from room hire is 8% ahead of budget, " +
						"offset by higher energy costs in the main hall. Members asked whether the energy overspend would continue into the winter; " +
						"the treasurer expects it to ease once the fixed-rate tariff starts. The committee noted the forecast year-end surplus of £4,200.",
					decision: "The management accounts were accepted and the forecast noted.",
					action:   "circulate the revised forecast to all trustees",
				},
				{
					title:       "Reserves policy",
					description: "Annual review of the level of free reserves the charity holds.",
					discussion: "Members discussed whether three months of running costs remains the right target given the planned roof works. " +
						"Free reserves currently stand at 3.4 months. Several members favoured a designated fund for building repairs, " +
						"so that the general reserve is not drawn down for work that can be planned.",
					decision: "The three-month target is kept, and a designated building fund of £15,000 is recommended to the board.",
					action:   "draft the wording of a designated building fund for the board",
				},
				{
					title:       "Grant funding pipeline",
					description: "Applications submitted, awaiting decision and planned for the next six months.",
					discussion: "Two applications are awaiting decision: the Community Foundation (£6,000, youth forum) and the council's " +
						"small grants scheme (£2,500, accessibility works). The Lottery application is planned for next quarter and needs " +
						"a full project budget. Members stressed that core costs should be recovered in every bid.",
					decision: "Proceed with the Lottery application, including a 15% contribution to core costs.",
					action:   "prepare the project budget for the Lottery application",
				},
				{
					title:       "Bank mandate and signatories",
					description: "Changes to the bank mandate following changes of officers.",
					discussion: "With two signatories stepping down at the AGM, the charity would be left with only two people able to authorise payments. " +
						"The committee agreed that at least three signatories are needed so that payments are not held up by holidays. " +
						"Online banking approvals will continue to need two people.",
					decision: "Add the new treasurer and vice-chair as signatories; keep dual authorisation for all payments over £500.",
					action:   "complete the bank's change of signatories form",
				},
				{
					title:       "External audit arrangements",
					description: "Appointment of the independent examiner or auditor for the current year.",
					discussion: "Income is likely to pass the audit threshold for the first time this year. The current independent examiner has " +
						"quoted for a full audit, but members felt the charity should test the market before committing. " +
						"The timetable allows quotes to be considered at the next meeting.",
					decision: "Seek three quotes for the audit before appointing.",
					action:   "obtain three audit quotes for the next meeting",
				},
				{
					title:       "Fees and charges for next year",
					description: "Proposed room hire rates and membership fees for the coming year.",
					discussion: "The proposed increase of 5% for commercial hirers was supported. Members were concerned that community groups, " +
						"who make up most bookings, would struggle with any increase; a concessionary rate frozen at this year's level was proposed. " +
						"The impact on income is about £900 a year.",
					decision: "Recommend a 5% increase for commercial hire and a frozen concessionary rate.",
					action:   "update the published price list once the board has approved it",
				},
				{
					title:       "Insurance renewal",
					description: "Renewal of buildings, contents and liability cover.",
					discussion: "The broker obtained three renewal quotes. The cheapest excludes cover for volunteers over 80, which the committee " +
						"found unacceptable given the age profile of the volunteers. The recommended quote is £310 higher than last year " +
						"but keeps the same terms.",
					decision: "Accept the broker's recommended quote.",
					action:   "confirm the renewal with the broker and file the new certificate",
				},
				{
					title:       "Expenses policy",
					description: "Review of the volunteer and trustee expenses policy.",
					discussion: "Claims have been slow to process because receipts arrive by post. Members agreed that photographs of receipts " +
						"should be accepted and that claims over three months old should need the chair's approval. " +
						"Mileage stays at the HMRC rate.",
					decision: "Adopt the revised expenses policy with effect from next month.",
					action:   "publish the revised expenses policy and claim form",
				},
			},
		},
		{
			name: "Governance", code: "GOV", location: "Boardroom, 14 High Street",
			hour: 18, minute: 30, members: []int{2, 0, 5, 8},
			lastPast: 6, gaps: []int{21, 14},
			recent:  []string{"in_review", "published_draft"},
			htmlAgo: 5, urlAgo: -1,
			topics: []demoTopic{
				{
					title:       "Standing orders review",
					description: "Proposed changes to standing orders, in particular the quorum for board meetings.",
					discussion: "The current quorum of half the trustees plus one has made two recent meetings inquorate. Members considered " +
						"a fixed quorum of four, which matches the practice of similar charities. Concern was raised that a fixed number " +
						"would become too low if the board grew, so a review clause was suggested.",
					decision: "Consult all trustees on a fixed quorum of four with a review after two years.",
					action:   "redraft section 4 of the standing orders for consultation",
				},
				{
					title:       "Conflicts of interest register",
					description: "Annual review of declared interests.",
					discussion: "Most trustees have returned their annual declarations. Two new interests were declared: a trustee's appointment " +
						"to the council's grants panel and a family connection with a contractor. Members agreed how each would be managed, " +
						"including leaving the room for related items.",
					decision: "The register was updated and the management arrangements agreed.",
					action:   "publish the updated register on the website",
				},
				{
					title:       "Trustee recruitment",
					description: "Skills gaps on the board and the plan to fill them.",
					discussion: "The skills audit showed gaps in legal, digital and fundraising experience. Members agreed to advertise through " +
						"the local volunteer centre and a trustee recruitment website, and to make a particular effort to reach younger people " +
						"and the communities the charity serves.",
					decision: "Recruit up to three trustees, with interviews before the AGM.",
					action:   "write the trustee role description and advert",
				},
				{
					title:       "Safeguarding policy",
					description: "Annual review of the safeguarding policy and training.",
					discussion: "The designated safeguarding lead reported no incidents this period. The policy needs updating to reflect the new " +
						"statutory guidance and to cover online activities run by the youth forum. Training records show four volunteers " +
						"due for refresher training.",
					decision: "Update the policy and arrange refresher training before the summer programme.",
					action:   "review the safeguarding policy against the new guidance",
				},
				{
					title:       "Annual general meeting planning",
					description: "Date, venue, business and notice for the AGM.",
					discussion: "The AGM will follow the usual format with the annual report, accounts and elections. Members agreed to hold it " +
						"in person with a video link for members who cannot attend. Notice must go out 21 days before, with proxy forms.",
					decision: "Hold the AGM at the Riverside Community Centre with a video link.",
					action:   "circulate the AGM notice and proxy forms",
				},
				{
					title:       "Risk register",
					description: "Quarterly review of the top risks and their controls.",
					discussion: "The top three risks remain the condition of the roof, dependence on a small number of key volunteers and the " +
						"loss of grant income. The volunteer risk was raised from medium to high after two coordinators gave notice. " +
						"Members asked for a succession plan for each key role.",
					decision: "The revised register was approved.",
					action:   "draft succession notes for each key volunteer role",
				},
				{
					title:       "Data protection",
					description: "Compliance with data protection law, subject access requests and breaches.",
					discussion: "One subject access request was received and answered within the deadline. There were no breaches. The annual " +
						"registration fee is due, and the privacy notice needs to mention the new mailing list provider.",
					decision: "Renew the registration and update the privacy notice.",
					action:   "update the privacy notice",
				},
				{
					title:       "Board effectiveness review",
					description: "Results of the trustees' self-assessment survey.",
					discussion: "Eight of nine trustees completed the survey. Strengths were the quality of papers and the chairing of meetings; " +
						"weaknesses were the length of meetings and too little time on strategy. Members proposed a strategy away day and " +
						"a consent agenda for routine items.",
					decision: "Introduce a consent agenda and hold a strategy away day.",
					action:   "propose dates for the strategy away day",
				},
			},
		},
		{
			name: "Facilities", code: "FAC", location: "Main Hall, Riverside Community Centre",
			hour: 10, members: []int{3, 4, 7, 6},
			lastPast: 9, gaps: []int{21},
			recent:  []string{"draft", "published_draft"},
			htmlAgo: -1, urlAgo: -1,
			topics: []demoTopic{
				{
					title:       "Building maintenance schedule",
					description: "Planned and reactive maintenance since the last meeting.",
					discussion: "The gutters on the north side overflowed again during heavy rain, and damp is showing in the storeroom. " +
						"Contractors are booked for the roof inspection. Members agreed that gutter clearance should move from yearly to " +
						"twice a year, before and after the autumn.",
					decision: "Clear the gutters twice a year from now on.",
					action:   "book contractors for the gutter clearance",
				},
				{
					title:       "Health and safety inspection",
					description: "Findings of the annual health and safety walk-round.",
					discussion: "The inspection found trailing cables in the office, an out-of-date first aid kit in the kitchen and a fire door " +
						"wedged open. All were dealt with on the day except the cables, which need an extra socket. " +
						"Portable appliance testing is due next month.",
					decision: "Fit an additional socket in the office and arrange appliance testing.",
					action:   "arrange PAT testing for all portable appliances",
				},
				{
					title:       "Energy use and lighting",
					description: "Energy consumption and options to reduce it.",
					discussion: "Electricity use is up 12% on last year, mostly from heating the main hall for evening hires. The old fluorescent " +
						"fittings in the main hall use about a third of the lighting load. Members asked for quotes for LED replacements " +
						"and for timers on the heaters.",
					decision: "Obtain quotes for LED lighting and heater timers.",
					action:   "collect quotes for LED lighting in the main hall",
				},
				{
					title:       "Accessibility improvements",
					description: "Access audit findings and the plan for the side entrance.",
					discussion: "The access audit rated the main entrance good but the side entrance poor: the ramp is too steep and there is no " +
						"handrail. A hearing loop for the main hall was also recommended. The council's small grants scheme may fund part of the work.",
					decision: "Prioritise the side entrance ramp and apply for a grant.",
					action:   "survey the side entrance ramp with a contractor",
				},
				{
					title:       "Room hire and bookings",
					description: "Use of rooms, booking problems and hire rates.",
					discussion: "Bookings are at 71% of available hours, up from 64%. Two double bookings happened after changes were made on paper " +
						"rather than in the online calendar. Members agreed the online calendar is the only record of bookings.",
					decision: "All bookings to be made and changed in the online calendar only.",
					action:   "brief the volunteers who take bookings on the new rule",
				},
				{
					title:       "Fire safety",
					description: "Fire risk assessment, alarm servicing and drills.",
					discussion: "The fire alarm service certificate expires this quarter and the engineer has found a faulty detector in the " +
						"kitchen. The last fire drill took four minutes to clear the building, within the target. " +
						"Members asked that hirers be reminded of the evacuation procedure.",
					decision: "Replace the faulty detector and renew the service contract.",
					action:   "renew the fire alarm service certificate",
				},
				{
					title:       "Car park and grounds",
					description: "Condition of the car park and the garden.",
					discussion: "Potholes near the entrance are getting worse, and a hirer has complained. Full resurfacing would cost about " +
						"£18,000, which is not in this year's budget. The garden volunteers have offered to replant the front beds.",
					decision: "Patch the worst potholes now and plan resurfacing for next year.",
					action:   "get a quote for patching the car park",
				},
				{
					title:       "Cleaning contract",
					description: "Performance of the cleaning contractor and renewal.",
					discussion: "The contractor's performance has improved since the last review, although the kitchen is still not always " +
						"cleaned after evening hires. The contract ends in two months. Members agreed to renew for one year " +
						"with a clearer specification for the kitchen.",
					decision: "Renew the cleaning contract for one year with a revised specification.",
					action:   "send the revised specification to the contractor",
				},
			},
		},
		{
			name: "Community Outreach", code: "OUT", location: "Online (video call)",
			hour: 19, members: []int{6, 8, 4, 9, 1},
			lastPast: 11, upcoming: 3, gaps: []int{14, 14, 21},
			recent:  []string{"published_draft", "approved", "draft"},
			htmlAgo: -1, urlAgo: -1,
			topics: []demoTopic{
				{
					title:       "Newsletter and communications",
					description: "The next newsletter, mailing list growth and feedback.",
					discussion: "The mailing list has grown to 1,240 subscribers and the open rate is steady at 48%. Some readers complained " +
						"that the last issue was too long. Members agreed to keep each issue to five stories and to move the events listing " +
						"to the website.",
					decision: "Limit the newsletter to five stories and link to the events page.",
					action:   "prepare the next newsletter",
				},
				{
					title:       "Volunteer recruitment",
					description: "Volunteer numbers, roles that need filling and the recruitment drive.",
					discussion: "There are 46 active volunteers, six fewer than last year. The most urgent gaps are drivers for the lunch club " +
						"and help with the youth forum. Members suggested a recruitment leaflet for the library, surgeries and supermarket notice boards.",
					decision: "Run a recruitment drive with a printed leaflet and a social media campaign.",
					action:   "finalise the volunteer recruitment leaflet",
				},
				{
					title:       "Summer fair",
					description: "Plans, stalls and volunteers for the summer fair.",
					discussion: "Twenty stalls are booked and the local band has agreed to play again. The council has approved the road closure. " +
						"Members were worried about volunteer numbers for set-up and clearing, and about a wet-weather plan.",
					decision: "Go ahead, with the main hall as the wet-weather venue.",
					action:   "draw up the volunteer rota for the summer fair",
				},
				{
					title:       "Partnerships with local schools",
					description: "Work with the primary and secondary schools.",
					discussion: "The secondary school has asked for speakers at its careers day, and the primary school would like to use the " +
						"garden for a science project. Members welcomed both and noted that safeguarding checks apply to volunteers working with pupils.",
					decision: "Support both requests, subject to safeguarding checks.",
					action:   "reply to the school about a careers-day speaker",
				},
				{
					title:       "Youth forum",
					description: "Progress of the youth forum and its funding.",
					discussion: "The youth forum has met three times with twelve regular members. They want to run a podcast and need a safe " +
						"way to communicate between sessions. The Community Foundation grant would cover equipment and a part-time coordinator.",
					decision: "Set up a moderated mailing list for the forum.",
					action:   "set up the youth forum mailing list",
				},
				{
					title:       "Website and social media",
					description: "Website updates and social media activity.",
					discussion: "Visits to the website rose after the open day, but the events page is often out of date. Members agreed that " +
						"two volunteers should be able to update it, and that photos need written consent from anyone clearly identifiable.",
					decision: "Train two more volunteers to update the website.",
					action:   "post the open-day photos that have consent",
				},
				{
					title:       "Translation and inclusion",
					description: "Reaching residents whose first language is not English.",
					discussion: "Feedback from the community centre shows that many Polish and Urdu speaking residents do not know what the " +
						"charity offers. Members agreed to translate the welcome pack and to ask community leaders to share it.",
					decision: "Translate the welcome pack into Polish and Urdu.",
					action:   "commission translations of the welcome pack",
				},
				{
					title:       "Impact report",
					description: "Content and timetable for the annual impact report.",
					discussion: "The report will combine figures from each service with four case studies. Members stressed that case studies " +
						"need consent and should show a range of services. A draft is needed in time for the AGM.",
					decision: "Produce the impact report with four case studies before the AGM.",
					action:   "gather the case studies for the impact report",
				},
			},
		},
	}
}
