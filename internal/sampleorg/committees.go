package sampleorg

import "github.com/recordsbot/recordsbot/internal/orgsim"

// worldCommittees returns the committees of the test organisation and the
// topics their agendas rotate through. Members index worldPeople.
func worldCommittees() []orgsim.Committee {
	return []orgsim.Committee{
		{
			Name: "Finance", Code: "FIN", Location: "Committee Room 2, Town Hall",
			Hour: 17, Members: []int{0, 1, 3, 7, 9},
			LastPast: 4, Upcoming: 10, Gaps: []int{14, 21},
			Recent:  []string{"published_draft"},
			HTMLAgo: -1, URLAgo: 2,
			Topics: []orgsim.Topic{
				{
					Title:       "Quarterly budget review",
					Description: "Income and expenditure against budget for the quarter, and the year-end forecast.",
					Discussion: "The treasurer presented the management accounts for the quarter. Income from room hire is 8% ahead of budget, " +
						"offset by higher energy costs in the main hall. Members asked whether the energy overspend would continue into the winter; " +
						"the treasurer expects it to ease once the fixed-rate tariff starts. The committee noted the forecast year-end surplus of £4,200.",
					Decision: "The management accounts were accepted and the forecast noted.",
					Action:   "circulate the revised forecast to all trustees",
				},
				{
					Title:       "Reserves policy",
					Description: "Annual review of the level of free reserves the charity holds.",
					Discussion: "Members discussed whether three months of running costs remains the right target given the planned roof works. " +
						"Free reserves currently stand at 3.4 months. Several members favoured a designated fund for building repairs, " +
						"so that the general reserve is not drawn down for work that can be planned.",
					Decision: "The three-month target is kept, and a designated building fund of £15,000 is recommended to the board.",
					Action:   "draft the wording of a designated building fund for the board",
				},
				{
					Title:       "Grant funding pipeline",
					Description: "Applications submitted, awaiting decision and planned for the next six months.",
					Discussion: "Two applications are awaiting decision: the Community Foundation (£6,000, youth forum) and the council's " +
						"small grants scheme (£2,500, accessibility works). The Lottery application is planned for next quarter and needs " +
						"a full project budget. Members stressed that core costs should be recovered in every bid.",
					Decision: "Proceed with the Lottery application, including a 15% contribution to core costs.",
					Action:   "prepare the project budget for the Lottery application",
				},
				{
					Title:       "Bank mandate and signatories",
					Description: "Changes to the bank mandate following changes of officers.",
					Discussion: "With two signatories stepping down at the AGM, the charity would be left with only two people able to authorise payments. " +
						"The committee agreed that at least three signatories are needed so that payments are not held up by holidays. " +
						"Online banking approvals will continue to need two people.",
					Decision: "Add the new treasurer and vice-chair as signatories; keep dual authorisation for all payments over £500.",
					Action:   "complete the bank's change of signatories form",
				},
				{
					Title:       "External audit arrangements",
					Description: "Appointment of the independent examiner or auditor for the current year.",
					Discussion: "Income is likely to pass the audit threshold for the first time this year. The current independent examiner has " +
						"quoted for a full audit, but members felt the charity should test the market before committing. " +
						"The timetable allows quotes to be considered at the next meeting.",
					Decision: "Seek three quotes for the audit before appointing.",
					Action:   "obtain three audit quotes for the next meeting",
				},
				{
					Title:       "Fees and charges for next year",
					Description: "Proposed room hire rates and membership fees for the coming year.",
					Discussion: "The proposed increase of 5% for commercial hirers was supported. Members were concerned that community groups, " +
						"who make up most bookings, would struggle with any increase; a concessionary rate frozen at this year's level was proposed. " +
						"The impact on income is about £900 a year.",
					Decision: "Recommend a 5% increase for commercial hire and a frozen concessionary rate.",
					Action:   "update the published price list once the board has approved it",
				},
				{
					Title:       "Insurance renewal",
					Description: "Renewal of buildings, contents and liability cover.",
					Discussion: "The broker obtained three renewal quotes. The cheapest excludes cover for volunteers over 80, which the committee " +
						"found unacceptable given the age profile of the volunteers. The recommended quote is £310 higher than last year " +
						"but keeps the same terms. Insurance premium tax, the government's levy on every premium, is included in the quote.",
					Decision: "Accept the broker's recommended quote.",
					Action:   "confirm the renewal with the broker and file the new certificate",
				},
				{
					Title:       "Expenses policy",
					Description: "Review of the volunteer and trustee expenses policy.",
					Discussion: "Claims have been slow to process because receipts arrive by post. Members agreed that photographs of receipts " +
						"should be accepted and that claims over three months old should need the chair's approval. " +
						"Mileage stays at the HMRC rate.",
					Decision: "Adopt the revised expenses policy with effect from next month.",
					Action:   "publish the revised expenses policy and claim form",
				},
			},
		},
		{
			Name: "Governance", Code: "GOV", Location: "Boardroom, 14 High Street",
			Hour: 18, Minute: 30, Members: []int{2, 0, 5, 8},
			LastPast: 6, Gaps: []int{21, 14},
			Recent:  []string{"in_review", "published_draft"},
			HTMLAgo: 5, URLAgo: -1,
			Topics: []orgsim.Topic{
				{
					Title:       "Standing orders review",
					Description: "Proposed changes to standing orders, in particular the quorum for board meetings.",
					Discussion: "The current quorum of half the trustees plus one has made two recent meetings inquorate. Members considered " +
						"a fixed quorum of four, which matches the practice of similar charities. Concern was raised that a fixed number " +
						"would become too low if the board grew, so a review clause was suggested.",
					Decision: "Consult all trustees on a fixed quorum of four with a review after two years.",
					Action:   "redraft section 4 of the standing orders for consultation",
				},
				{
					Title:       "Conflicts of interest register",
					Description: "Annual review of declared interests.",
					Discussion: "Most trustees have returned their annual declarations. Two new interests were declared: a trustee's appointment " +
						"to the council's grants panel and a family connection with a contractor. Members agreed how each would be managed, " +
						"including leaving the room for related items.",
					Decision: "The register was updated and the management arrangements agreed.",
					Action:   "publish the updated register on the website",
				},
				{
					Title:       "Trustee recruitment",
					Description: "Skills gaps on the board and the plan to fill them.",
					Discussion: "The skills audit showed gaps in legal, digital and fundraising experience. Members agreed to advertise through " +
						"the local volunteer centre and a trustee recruitment website, and to make a particular effort to reach younger people " +
						"and the communities the charity serves.",
					Decision: "Recruit up to three trustees, with interviews before the AGM.",
					Action:   "write the trustee role description and advert",
				},
				{
					Title:       "Safeguarding policy",
					Description: "Annual review of the safeguarding policy and training.",
					Discussion: "The designated safeguarding lead reported no incidents this period. The policy needs updating to reflect the new " +
						"statutory guidance and to cover online activities run by the youth forum. Training records show four volunteers " +
						"due for refresher training.",
					Decision: "Update the policy and arrange refresher training before the summer programme.",
					Action:   "review the safeguarding policy against the new guidance",
				},
				{
					Title:       "Annual general meeting planning",
					Description: "Date, venue, business and notice for the AGM.",
					Discussion: "The AGM will follow the usual format with the annual report, accounts and elections. Members agreed to hold it " +
						"in person with a video link for members who cannot attend. Notice must go out 21 days before, with proxy forms.",
					Decision: "Hold the AGM at the Riverside Community Centre with a video link.",
					Action:   "circulate the AGM notice and proxy forms",
				},
				{
					Title:       "Risk register",
					Description: "Quarterly review of the top risks and their controls.",
					Discussion: "The top three risks remain the condition of the roof, dependence on a small number of key volunteers and the " +
						"loss of grant income. The volunteer risk was raised from medium to high after two coordinators gave notice. " +
						"Members asked for a succession plan for each key role.",
					Decision: "The revised register was approved.",
					Action:   "draft succession notes for each key volunteer role",
				},
				{
					Title:       "Data protection",
					Description: "Compliance with data protection law, subject access requests and breaches.",
					Discussion: "One subject access request was received and answered within the deadline. There were no breaches. The annual " +
						"registration fee is due, and the privacy notice needs to mention the new mailing list provider.",
					Decision: "Renew the registration and update the privacy notice.",
					Action:   "update the privacy notice",
				},
				{
					Title:       "Board effectiveness review",
					Description: "Results of the trustees' self-assessment survey.",
					Discussion: "Eight of nine trustees completed the survey. Strengths were the quality of papers and the chairing of meetings; " +
						"weaknesses were the length of meetings and too little time on strategy. Members proposed a strategy away day and " +
						"a consent agenda for routine items.",
					Decision: "Introduce a consent agenda and hold a strategy away day.",
					Action:   "propose dates for the strategy away day",
				},
			},
		},
		{
			Name: "Facilities", Code: "FAC", Location: "Main Hall, Riverside Community Centre",
			Hour: 10, Members: []int{3, 4, 7, 6},
			LastPast: 9, Gaps: []int{21},
			Recent:  []string{"draft", "published_draft"},
			HTMLAgo: -1, URLAgo: -1,
			Topics: []orgsim.Topic{
				{
					Title:       "Building maintenance schedule",
					Description: "Planned and reactive maintenance since the last meeting.",
					Discussion: "The gutters on the north side overflowed again during heavy rain, and damp is showing in the storeroom. " +
						"Contractors are booked for the roof inspection. Members agreed that gutter clearance should move from yearly to " +
						"twice a year, before and after the autumn.",
					Decision: "Clear the gutters twice a year from now on.",
					Action:   "book contractors for the gutter clearance",
				},
				{
					Title:       "Health and safety inspection",
					Description: "Findings of the annual health and safety walk-round.",
					Discussion: "The inspection found trailing cables in the office, an out-of-date first aid kit in the kitchen and a fire door " +
						"wedged open. All were dealt with on the day except the cables, which need an extra socket. " +
						"Portable appliance testing is due next month.",
					Decision: "Fit an additional socket in the office and arrange appliance testing.",
					Action:   "arrange PAT testing for all portable appliances",
				},
				{
					Title:       "Energy use and lighting",
					Description: "Energy consumption and options to reduce it.",
					Discussion: "Electricity use is up 12% on last year, mostly from heating the main hall for evening hires. The old fluorescent " +
						"fittings in the main hall use about a third of the lighting load. Members asked for quotes for LED replacements " +
						"and for timers on the heaters.",
					Decision: "Obtain quotes for LED lighting and heater timers.",
					Action:   "collect quotes for LED lighting in the main hall",
				},
				{
					Title:       "Accessibility improvements",
					Description: "Access audit findings and the plan for the side entrance.",
					Discussion: "The access audit rated the main entrance good but the side entrance poor: the ramp is too steep and there is no " +
						"handrail. A hearing loop for the main hall was also recommended. The council's small grants scheme may fund part of the work.",
					Decision: "Prioritise the side entrance ramp and apply for a grant.",
					Action:   "survey the side entrance ramp with a contractor",
				},
				{
					Title:       "Room hire and bookings",
					Description: "Use of rooms, booking problems and hire rates.",
					Discussion: "Bookings are at 71% of available hours, up from 64%. Two double bookings happened after changes were made on paper " +
						"rather than in the online calendar. Members agreed the online calendar is the only record of bookings.",
					Decision: "All bookings to be made and changed in the online calendar only.",
					Action:   "brief the volunteers who take bookings on the new rule",
				},
				{
					Title:       "Fire safety",
					Description: "Fire risk assessment, alarm servicing and drills.",
					Discussion: "The fire alarm service certificate expires this quarter and the engineer has found a faulty detector in the " +
						"kitchen. The last fire drill took four minutes to clear the building, within the target. " +
						"Members asked that hirers be reminded of the evacuation procedure.",
					Decision: "Replace the faulty detector and renew the service contract.",
					Action:   "renew the fire alarm service certificate",
				},
				{
					Title:       "Car park and grounds",
					Description: "Condition of the car park and the garden.",
					Discussion: "Potholes near the entrance are getting worse, and a hirer has complained. Full resurfacing would cost about " +
						"£18,000, which is not in this year's budget. The garden volunteers have offered to replant the front beds.",
					Decision: "Patch the worst potholes now and plan resurfacing for next year.",
					Action:   "get a quote for patching the car park",
				},
				{
					Title:       "Cleaning contract",
					Description: "Performance of the cleaning contractor and renewal.",
					Discussion: "The contractor's performance has improved since the last review, although the kitchen is still not always " +
						"cleaned after evening hires. The contract ends in two months. Members agreed to renew for one year " +
						"with a clearer specification for the kitchen.",
					Decision: "Renew the cleaning contract for one year with a revised specification.",
					Action:   "send the revised specification to the contractor",
				},
			},
		},
		{
			Name: "Community Outreach", Code: "OUT", Location: "Online (video call)",
			Hour: 19, Members: []int{6, 8, 4, 9, 1},
			LastPast: 11, Upcoming: 3, Gaps: []int{14, 14, 21},
			Recent:  []string{"published_draft", "approved", "draft"},
			HTMLAgo: -1, URLAgo: -1,
			Topics: []orgsim.Topic{
				{
					Title:       "Newsletter and communications",
					Description: "The next newsletter, mailing list growth and feedback.",
					Discussion: "The mailing list has grown to 1,240 subscribers and the open rate is steady at 48%. Some readers complained " +
						"that the last issue was too long. Members agreed to keep each issue to five stories and to move the events listing " +
						"to the website.",
					Decision: "Limit the newsletter to five stories and link to the events page.",
					Action:   "prepare the next newsletter",
				},
				{
					Title:       "Volunteer recruitment",
					Description: "Volunteer numbers, roles that need filling and the recruitment drive.",
					Discussion: "There are 46 active volunteers, six fewer than last year. The most urgent gaps are drivers for the lunch club " +
						"and help with the youth forum. Members suggested a recruitment leaflet for the library, surgeries and supermarket notice boards.",
					Decision: "Run a recruitment drive with a printed leaflet and a social media campaign.",
					Action:   "finalise the volunteer recruitment leaflet",
				},
				{
					Title:       "Summer fair",
					Description: "Plans, stalls and volunteers for the summer fair.",
					Discussion: "Twenty stalls are booked and the local band has agreed to play again. The council has approved the road closure. " +
						"Members were worried about volunteer numbers for set-up and clearing, and about a wet-weather plan.",
					Decision: "Go ahead, with the main hall as the wet-weather venue.",
					Action:   "draw up the volunteer rota for the summer fair",
				},
				{
					Title:       "Partnerships with local schools",
					Description: "Work with the primary and secondary schools.",
					Discussion: "The secondary school has asked for speakers at its careers day, and the primary school would like to use the " +
						"garden for a science project. Members welcomed both and noted that safeguarding checks apply to volunteers working with pupils.",
					Decision: "Support both requests, subject to safeguarding checks.",
					Action:   "reply to the school about a careers-day speaker",
				},
				{
					Title:       "Youth forum",
					Description: "Progress of the youth forum and its funding.",
					Discussion: "The youth forum has met three times with twelve regular members. They want to run a podcast and need a safe " +
						"way to communicate between sessions. The Community Foundation grant would cover equipment and a part-time coordinator.",
					Decision: "Set up a moderated mailing list for the forum.",
					Action:   "set up the youth forum mailing list",
				},
				{
					Title:       "Website and social media",
					Description: "Website updates and social media activity.",
					Discussion: "Visits to the website rose after the open day, but the events page is often out of date. Members agreed that " +
						"two volunteers should be able to update it, and that photos need written consent from anyone clearly identifiable.",
					Decision: "Train two more volunteers to update the website.",
					Action:   "post the open-day photos that have consent",
				},
				{
					Title:       "Translation and inclusion",
					Description: "Reaching residents whose first language is not English.",
					Discussion: "Feedback from the community centre shows that many Polish and Urdu speaking residents do not know what the " +
						"charity offers. Members agreed to translate the welcome pack and to ask community leaders to share it.",
					Decision: "Translate the welcome pack into Polish and Urdu.",
					Action:   "commission translations of the welcome pack",
				},
				{
					Title:       "Impact report",
					Description: "Content and timetable for the annual impact report.",
					Discussion: "The report will combine figures from each service with four case studies. Members stressed that case studies " +
						"need consent and should show a range of services. A draft is needed in time for the AGM.",
					Decision: "Produce the impact report with four case studies before the AGM.",
					Action:   "gather the case studies for the impact report",
				},
			},
		},
	}
}
