// Stop words for free text (a person's or agent's message). Two kinds:
// - English function words, which say nothing about what a conversation is about;
// - chat filler and recall cues ("please", "like last time", "as we discussed"), which people type
//   precisely when they point back at earlier work but which never name that work.
// Domain-common words ("test", "fix", "deploy") are NOT listed here on purpose: whether such a word is
// distinctive depends on the person's own corpus, which the gate measures (corpus df), not a list.
// All entries are lowercase, diacritic-free tokens as terms.ts produces them.

const ENGLISH = `a about above after again against all almost along already also although always am among an and
another any anybody anyone anything anyway anywhere are aren around as at be became because become been before
being below beside besides between both but by came can cannot cant could couldn did didn do does doesn doing don
done down during each either else enough etc even ever every everybody everyone everything everywhere few for from
further had hadn has hasn have haven having he her here hers herself him himself his how however i if in into is
isn it its itself just least less let lets ll may me might mine more most much must mustn my myself neither never
no nobody none nor not nothing now of off often on once one only onto or other others otherwise ought our ours
ourselves out over own per perhaps quite rather re s same shall shan she should shouldn since so some somebody
someone something sometimes somewhat somewhere still such t than that the their theirs them themselves then there
therefore these they thing things this those though through thus to too toward towards under until up upon us ve
very via was wasn we were weren what whatever when whenever where wherever whether which while who whoever whole
whom whose why will with within without won would wouldn yet you your yours yourself yourselves d m o y`;

const CHAT = `hey hi hello please pls plz thanks thank thx ty cheers ok okay alright yeah yep yes nope sure cool great
nice awesome lol hmm um uh well like just really actually basically literally maybe probably pretty kind sort
stuff bit lot lots again last time times previous previously earlier before back remember recall recalled
discussed discuss mentioned said told asked ago
want wanted need needed needs trying try tried think thought know knew guess seems seem seemed looks look
looking see saw get got getting go going gonna wanna make made do doing done use using help could would should
anyway something somehow someone whatever thing things way ways also now today yesterday tomorrow
morning afternoon evening quick question questions btw fyi sorry hope wondering wonder curious`;

export const STOP_WORDS: ReadonlySet<string> = new Set(`${ENGLISH} ${CHAT}`.split(/\s+/).filter(Boolean));
