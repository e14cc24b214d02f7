"""The phrases the injection detector looks for (injection.py applies them): regexes by kind, and the
letters-only forms that give away spaced or punctuated instructions. Kept apart so that vocabulary changes are
reviewed as such."""

from __future__ import annotations

GRADER = r"(?:grader|examiner|marker|evaluator|assessor|judge|reviewer|teacher|instructor|professor|tutor)"
AI = r"(?:ai|llm|language model|model|assistant|chat ?gpt|gpt|claude|bot)"
FAVOUR = (
    r"(?:met|satisfied|fulfilled|passed|correct|complete|perfect|fully|full|maximum|max|excellent"
    r"|100|10/10|5/5|1\.0|top)"
)

PATTERNS: tuple[tuple[str, str], ...] = (
    (
        "override",
        r"\b(?:ignore|disregard|forget|override|overrule)\b[^.\n]{0,20}"
        r"\b(?:previous|prior|above|earlier|preceding|original|all|any|your|the grading|the system"
        r"|these|those)\b[^.\n]{0,25}\b(?:instructions?|rules|directions|guidelines|rubric"
        r"|grading criteria|marking scheme)\b",
    ),
    (
        "override",
        r"\b(?:new|updated|revised|secret|hidden|real)\s+(?:grading\s+)?(?:instructions?|directives?)"
        r"\s*[:\-!]|\b(?:new|updated|revised|secret|hidden)\s+(?:grading (?:rules?|policy|instructions?)"
        r"|directives?)\b",
    ),
    ("override", r"\b(?:developer|debug|god|admin|jailbreak|dan)\s+mode\b|\bjailbreak\b"),
    (
        "grader_address",
        rf"(?:\b(?:dear|hey|hi|hello|note (?:to|for)|message (?:to|for)|psst)\b|\battention\s*[:,!])"
        rf"[\s,:]*(?:the\s+|my\s+|our\s+|any\s+)?(?:{GRADER}|{AI}|grading (?:model|system|ai))s?\b",
    ),
    ("grader_address", rf"\b(?:to|for)\s+(?:the|any)\s+(?:{GRADER}|grading (?:model|system|ai)|ai grader)s?\s*:"),
    (
        "role_play",
        rf"\bas\s+(?:the|an?|your)\s+(?:{GRADER}|grading (?:model|ai|assistant|system)"
        rf"|ai(?: language model| grader| judge| assistant)?)\b[^.\n]{{0,40}}\b(?:i|we|you|this|it)\b",
    ),
    (
        "role_play",
        rf"\b(?:you are|you're|you will be|act as|acting as|pretend(?: to be| you are)?|imagine you are"
        rf"|role-?play(?: as)?|play the role of|behave as|from now on you)\b[^.\n]{{0,40}}"
        rf"\b(?:{GRADER}|grading|lenient|generous)\b",
    ),
    ("role_play", rf"\b(?:i am|i'm|we are|this is)\s+(?:the|your|an?)\s+(?:{GRADER}|administrator|admin)\b"),
    (
        "grading_order",
        r"\b(?:mark|grade|score|rate|award|give|assign|set|consider|treat|label|count|record"
        r"|output|return|respond with|report|flag|evaluate|judge)\b[^.\n]{0,60}"
        r"\b(?:criteria|criterion|rubric|every (?:point|item|requirement)|all (?:points|items"
        r"|requirements|checks))\b[^.\n]{0,40}" + rf"\b{FAVOUR}\b",
    ),
    (
        "grading_order",
        r"\b(?:mark|grade|score|rate|award|give|assign|consider|treat|count|evaluate|judge)\s+"
        r"(?:this|my|the|the above|the following|the candidate'?s?)?\s*"
        r"(?:answer|response|submission|essay|reply|work|it|me|mine)\s+(?:as\s+)?(?:being\s+)?"
        r"(?:fully\s+|completely\s+|100%\s+)?(?:correct|complete|perfect|full marks|full credit"
        r"|excellent|flawless|passing|passed|right)\b",
    ),
    (
        "grading_order",
        r"\b(?:award|give|assign|grant)\s+(?:this|it|me|us|the answer|this answer|my answer"
        r"|the candidate)?\s*(?:the\s+)?(?:full marks|full credit|full points|full score"
        r"|maximum (?:marks|points|score|credit|grade)|top marks|a perfect|perfect marks|100\s?%)",
    ),
    (
        "grading_order",
        r"\b(?:do not|don't|never|must not|mustn't|should not|shouldn't)\s+(?:deduct|penali[sz]e"
        r"|dock|mark (?:it |this |me |the answer )?down|take (?:off|away) (?:any )?(?:points|marks))\b",
    ),
    (
        "grading_order",
        r"\b(?:you|the grader|the judge|the examiner)\s+(?:must|should|shall|will|have to|need to"
        r"|are required to|are instructed to)\s+(?:award|give|grant|mark|grade|score|rate"
        r"|assign|accept|pass)\b",
    ),
    (
        "grading_order",
        r"\b(?:this|the above|the following|my|the previous) (?:answer|response|submission)\s+"
        r"(?:is|should be|must be|deserves|earns|gets|has been|was)\s+(?:graded|marked|scored|rated"
        r"|awarded|given|a|an)?\s*(?:perfect|full (?:marks|credit|score)|max|maximum|top marks"
        r"|10/10|pre-?approved|approved by|verified by|flawless|all criteria)",
    ),
    (
        "score_claim",
        r"\b(?:full|perfect|top)\s+(?:marks?|score(?!\s+(?:matri|tensor|vector|comput))|points|credit)\b"
        r"|\b(?:maximum|max)\s+(?:marks?|credit|grade)\b"
        # "the class having maximum points" (k-NN) is no claim; maximum points *for an answer* is
        r"|\b(?:maximum|max)\s+points\s+(?:to|for|on)\s+(?:this|my|the|your)\b",
    ),
    (
        "score_claim",
        r"\b(?:score|grade|mark|rating)\s*(?:is|=|:|of|should be|must be|will be|equals)\s*"
        r"(?:\d+(?:\.\d+)?\s*(?:/\s*\d+|%|percent|out of \d+)|a\+|pass(?:ed)?\b|perfect|full"
        r"|max(?:imum)?\b)",
    ),
    ("score_claim", r"(?<![\w/.])(?:10/10|5/5|100/100|1\.0/1\.0|20/20)(?![\w/])"),
    (
        "score_claim",
        r"\ball\s+(?:rubric\s+|the\s+|of the\s+)?criteri(?:a|on|ons)\s+(?:are|were|have been|is|been)"
        r"\s+(?:\w+\s+)?(?:met|satisfied|fulfilled|passed|covered|achieved|addressed)\b",
    ),
    (
        "score_claim",
        r"\b(?:meets?|satisf(?:y|ies)|fulfil(?:l|ls|s)?|pass(?:es)?|covers?|addresses|ticks?)\s+"
        r"(?:all|every|each|any)\s+(?:of\s+)?(?:the\s+|your\s+)?(?:rubric\s+|grading\s+)?"
        r"(?:criteria|criterion|rubric points?|marking points?|boxes)\b",
    ),
    (
        "grading_order",
        r"\b(?:return|output|respond with|answer with|emit|print|reply with|write)\s+"
        r"[\"'`]?(?:met|passed|full marks)[\"'`]?(?:\s|$|[.,;!])",
    ),
    (
        "grading_order",
        r"\b(?:the\s+)?(?:evaluation|grading|grader|judge|assessment|marking|examiner)\s+"
        r"(?:must|should|shall|will|has to|needs to|is required to)\s+(?:return|output|be|give|mark"
        r"|award|say|report|conclude|find)\b",
    ),
    (
        "meta_talk",
        r"\b(?:rubric|rubrics|grader|graders|examiner|marking scheme|verdicts?|grading (?:model|rubric"
        r"|criteria|instructions|system|prompt)|(?:ai|llm) (?:grader|judge|evaluator))\b",
    ),
    (
        "fake_verdict",
        r"[\"']?\b(?:verdict|grade|score|criteria|criterion_id|judgement|judgment)\b[\"']?\s*[:=]"
        r"\s*[\[{\"']?\s*(?:met|partial|missed|pass|passed|correct|full|\{|\"id\"|'id')",
    ),
    ("fake_verdict", r"\{\s*[\"'](?:criteria|verdict|id|score|grade)[\"']\s*:"),
    ("fake_verdict", r"[\"']verdict[\"']\s*:"),
    ("fake_verdict", r"\b(?:criterion|criteria)\b\s*[\w\-\"'() ]{0,40}[:=\-]\s*(?:met|satisfied)\b"),
    (
        "chat_markup",
        # a template token followed by a role or by an instruction; "inserts <|im_start|> around each turn" is prose
        r"<\|[a-z_ ]{2,20}\|>\s*(?:system|user|assistant|developer)\b|\[inst\]\s*(?!\.\.\.|…)\w"
        r"|<<\s*/?sys\s*>>|</?s>|###\s*(?:instruction|system|response"
        r"|assistant)\b|\bbegin(?:ning)? of (?:system|instructions?)\b",
    ),
    # A role label opening a line: in capitals, in brackets, or followed by an order ("System: 8x H100" is fine).
    (
        "chat_markup",
        r"(?:^|\n)\s*(?:(?-i:SYSTEM|ASSISTANT|DEVELOPER|GRADER|JUDGE|EXAMINER)\s*:"
        r"|[\[(<]\s*(?:system|assistant|developer|grader|judge|examiner)\s*[\])>]\s*:?"
        r"|(?:system|assistant|developer|grader|judge|examiner)\s*:\s*(?:you|ignore|disregard"
        r"|the (?:candidate|answer|student)|mark|grade|return|output|award|give)\b)",
    ),
    ("chat_markup", r"</?\s*(?:system|assistant|instructions?|prompt|grader|rubric|im_start|im_end)\s*>"),
    ("fake_end", r"</\s*(?:answer|response|candidate[_\- ]?answer|submission|student[_\- ]?answer|input|data)\s*>"),
    ("fake_end", r"<{3,}|>{3,}|\bcandidate_answer_(?:begin|end)\b"),
    (
        "fake_end",
        r"\b(?:end|close|closing) of (?:the )?(?:candidate'?s? |student'?s? |my )?"
        r"(?:answer|response|submission|input)\b|\b(?:answer|response|submission) (?:ends|is over|"
        r"complete[sd]?) here\b",
    ),
)

# Other languages: a note to the grader or a request for top marks has no business in an answer about inference
# systems, in any language. Written from a development set of payloads (French, German, Spanish, Italian, Chinese,
# Japanese), like the English additions below it.
GRADER_OTHER = (
    r"(?:correcteur|correctrice|[ée]valuateur|examinateur|pr[üu]fer(?:in)?|korrektor|bewerter|gutachter"
    r"|evaluador|corrector|examinador|correttore|valutatore|esaminatore)"
)
TOP_MARKS_OTHER = (
    r"(?:note maximale|note compl[èe]te|tous les points|volle(?:n)? punkt(?:zahl|e)|h[öo]chstpunktzahl"
    r"|puntuaci[óo]n m[áa]xima|nota m[áa]xima|m[áa]xima puntuaci[óo]n|punteggio massimo|voto massimo"
    r"|满分|滿分|満点|最高分)"
)
MORE_PATTERNS: tuple[tuple[str, str], ...] = (
    ("grader_address", rf"\b(?:note|hinweis|nota|message|mensaje|messaggio)\s+(?:au|à|an|para|per|al|alla|pour)"
                       rf"\s+(?:l[ae']\s*|den\s+|die\s+|el\s+|la\s+|il\s+)?{GRADER_OTHER}"),
    ("grader_address", r"评分员|评分者|阅卷人|阅卷老师|评分系统|採点者|採点する方"),
    ("grading_order", TOP_MARKS_OTHER),
    ("override", r"\b(?:ignor(?:ez|er|e|a|iere|ieren|are|ate)|oubliez|vergiss|olvida)\b[^.\n]{0,40}"
                 r"\b(?:instructions?|anweisungen|instrucciones|istruzioni|r[ée]f[ée]rence|referenz|referencia"
                 r"|riferimento|musterl[öo]sung)"),
    ("override", r"(?:忽略|无视|忽視|無視)[^。\n]{0,12}(?:参考答案|指令|说明|指示|参考|评分标准|評価基準)"),
    ("grading_order", r"\bgeneros[oa]\s+con\s+la\s+(?:calificaci[óo]n|nota)\b"),
    # pleas, threats and bargaining about the grade
    ("grading_order", r"\b(?:be|being)\s+(?:generous|lenient|kind|nice|easy)\s+(?:with|when|on|in)\s+"
                      r"(?:my|the|this)\s+(?:grade|grading|score|scoring|marking|marks?)\b"),
    ("grading_order", r"\bround\s+(?:my|the|this)\s+(?:score|grade|marks?)\s+up\b"
                      r"|\bround\s+up\s+(?:my|the)\s+(?:score|grade|marks?)\b"),
    ("grading_order", r"\bif\s+(?:this|my)\s+(?:answer|response|submission)\s+is\s+(?:marked|graded|scored)\s+"
                      r"(?:down|low|lower|poorly|badly)\b|\bgrading\s+(?:this|my)\s+(?:answer|response)\s+below\b"),
    ("grading_order", r"\bdon'?t\s+fail\s+me\b|\bplease\s+(?:don'?t|do not)\s+(?:fail|mark down|penali[sz]e)\b"),
    ("grading_order", r"\b(?:points|marks|credit)\s+(?:(?:should|must|shall|will|can|may)\s+)?(?:not\s+)?"
                      r"(?:be\s+|being\s+)?(?:deducted|taken off|subtracted)\b"
                      r"|\b(?:deduct|subtract|dock)\s+(?:any\s+)?(?:points|marks)\b"),
    # the reference answer set aside
    ("override", r"\bignore\s+(?:the\s+)?(?:reference|model|expected|sample)\s+(?:answer|solution)\b"),
    ("override", r"\bthe\s+(?:reference|model|expected|sample)\s+(?:answer|solution)\s+is\s+"
                 r"(?:wrong|incorrect|outdated|mistaken|flawed)\b"),
    ("grading_order", r"\b(?:score|grade|mark|treat|rate)\s+(?:it|this|me|mine|this (?:answer|response)"
                      r"|my (?:answer|response))\s+as\s+(?:the\s+)?(?:reference|gold|model answer|answer key)\b"
                      r"|\bgold[- ]standard\s+(?:example|answer|response)\b"),
    # orders for the output, and verdicts in formats an answer never uses
    ("grading_order", r"\b(?:output|return|print|reply with|respond with|answer with|emit|write)\s+only\s+"
                      r"(?:the\s+)?(?:number|score|value|digit|grade)?\s*[\"'`]?(?:1(?:\.0+)?|10|100)\b"),
    ("score_claim", r"\b(?:grade|score|mark)\b[^.\n:]{0,30}:\s*(?:100\s*%|a\+|10/10)"),
    ("score_claim", r"\btotal\s*[:=]\s*(\d+)\s*/\s*\1\b"),
    ("fake_verdict", r"<\s*(?:score|grade|evaluation|verdict|rubric_match|result|assessment)\s*>"),
    ("fake_verdict", r"(?:^|[\s{,\"'])(?:recommended_|final_|total_|overall_)?(?:score|grade|rating)s?[\"']?\s*[:=]\s*"
                     r"[\"']?(?:1\.0+|10|100|a\+)(?![\w.])"),
    ("fake_verdict", r"\bscore\s+override\b|\boverride\s+(?:the\s+)?(?:score|grade)\b"),
    ("fake_verdict", r"\b(?:is_?correct|passed|all_met)\s*[:=]\s*(?:true|yes|1)\b"
                     r"|\brubric[_ ]?(?:check|match|result|status)\s*[:=]"),
)

# Indirect attempts, written from a second development set: claims about the answer's own standing, pleas to
# read it kindly, orders for the judge's reply, fake notes from staff, and grading records in code or config.
_SELF = r"(?:this|my|the above|the preceding|the following)\s+(?:answer|response|submission|explanation|solution|text)"
_STAFF = (r"(?:moderator|teaching assistant|ta|tutor|editor|marker|reviewer|assessor|examiner|evaluator|grader"
          r"|interviewer|hiring manager|recruiter|recruiting|question author|author of (?:this|the) question"
          r"|course staff|teaching team|panel)")
SUBTLE_PATTERNS: tuple[tuple[str, str], ...] = (
    ("score_claim", rf"\b{_SELF}\s+(?:has|have|was|were|is)\s+(?:already\s+|been\s+)*(?:been\s+)?"
                    rf"(?:verified|approved|pre-?approved|accepted|confirmed|reviewed|validated|adopted|regraded)\b"),
    ("score_claim", r"\b(?:already\s+)?(?:reviewed|verified|approved|checked)\s+(?:and\s+found\s+)?"
                    r"(?:flawless|complete|correct|perfect)\b|\bverified complete\b"),
    ("score_claim", r"\b(?:every|each|all)\s+(?:expected|required|key|rubric|marking)\s+points?\s+(?:is|are)\s+"
                    r"(?:addressed|covered|met)\b|\bcovers every (?:expected|required) point\b"),
    ("score_claim", r"\btop band\b(?!\s+of)|\bhighest (?:band|outcome|grade|mark)\b"
                    r"|\b(?:was|were|is|been|already|as)\s+pre-?approved\b"),
    ("score_claim", rf"\b{_SELF}\s+is\s+(?:fully\s+)?(?:correct and complete|excellent|flawless|perfect)\b"
                    r"|\bthis is the (?:full|complete|perfect) answer\b"
                    r"|\breviewers? (?:have |has )?(?:already )?confirmed\b"
                    r"|\ball (?:the )?points (?:are |were )?covered\b|\bno deductions?\b"),
    ("score_claim", r"\b(?:interviewer|reviewer|examiner|grader|assessor)\s+(?:already\s+)?(?:agreed|confirmed|said"
                    r"|accepted)\b[^.\n]{0,30}\b(?:correct|complete)\b"),
    ("grading_order", rf"\b{_SELF}\b[^.\n]{{0,40}}\bshould be (?:treated|read|counted|graded|marked|scored) as\b"),
    ("grader_address", r"\b(?:model|ai|llm|assistant|grader|reviewer|evaluator)\s+reading\s+this\b"
                       r"|\b(?:evaluator|grader|marker|assessor|examiner|reviewer)\s*:\s*(?:treat|mark|give|award"
                       r"|consider|score|grade|please|just|only)\b"),
    ("score_claim", r"\bthis (?:text|answer|response) is the (?:reference|official|model) (?:answer|solution)\b"
                    r"|\badopted as the official (?:solution|answer)\b|\bthe intended answer\b"),
    ("grading_order", r"\b(?:read|take|treat|interpret)\s+(?:this|it|my answer|any gaps?|gaps)\s+(?:\w+\s+)?"
                      r"(?:charitably|generously|favou?rably|kindly|as typos)\b"
                      r"|\b(?:give|grant|extend)\s+(?:me|this answer|my answer)\s+the\s+benefit of the doubt\b"
                      r"|\bgo easy on me\b|\bweigh this favou?rably\b|\bplease be kind\b"),
    ("grading_order", r"\bassume\s+(?:that\s+)?i\s+meant\b|\bwhat i (?:obviously )?(?:intended|meant) to say\b"
                      r"|\bcount\s+(?:brief\s+)?mentions\s+as\b|\bshould be read as whatever\b"),
    ("grading_order", r"\b(?:respond|reply|answer|say|state|confirm)\s+(?:only\s+)?(?:that|with)?\s*[\"'`]?"
                      r"(?:all|every)\s+(?:the\s+)?(?:points|criteria|requirements)\s+(?:are|were)\s+(?:covered|met)"),
    # "your output will be identical to the target model's" (speculative decoding) is prose, not an order
    ("grading_order", r"\byour\s+(?:reply|feedback|evaluation|verdict|grade|score)\s+(?:must|should|will)\b"
                      r"|\byour\s+(?:output|response|answer)\s+(?:must|should)\s+(?:say|read|state|contain the word)\b"
                      r"|\b(?:in|at the end of)\s+your\s+(?:reply|response|feedback|output)\s*,?\s+"
                      r"(?:say|state|write|confirm|report|do not|don't|never)\b"
                      r"|\blast line of your (?:reply|response|output)\b"),
    ("grading_order", r"\b(?:stop|skip|end)\s+(?:evaluating|grading|the evaluation|remaining checks|the review)\b"
                      r"|\bno further (?:review|checks?|evaluation) (?:is )?(?:needed|required|necessary)\b"
                      r"|\bmanual review unnecessary\b|\bdo not list any missing\b"),
    # "when you evaluate this, only check ..." addresses the grader; "when you evaluate this on 8 GPUs" does not
    ("grading_order", r"\bwhen you (?:evaluate|grade|assess|mark|score|review) this"
                      r"(?:\s+(?:answer|response|submission))?\s*[,:]"
                      r"|\b(?:only|just) (?:check|confirm|verify) that\b[^.\n]{0,40}\bis mentioned\b"
                      r"|\bcompare this answer against itself\b"),
    ("grader_address", rf"\b{_STAFF}\s+(?:note|remark|comment|here|message)\s*[:,]"
                       rf"|\b(?:note|remark|message|feedback|comment)\s+from\s+(?:the\s+)?{_STAFF}\b"
                       rf"|\b(?:as|this is)\s+the\s+author\s+of\s+this\s+question\b|\bquestion author\s*:"),
    ("grader_address", r"\b(?:appeal|re-?evaluation|regrade|previous marking|moderation)\s*(?:result|outcome|accepted"
                       r"|decision)?\s*(?:from the previous round)?\s*[:,]"),
    ("grading_order", r"\b(?:a|any)\s+(?:fair|reasonable|lenient|good|competent)\s+(?:grader|reviewer|evaluator|marker"
                      r"|examiner|assessor)\s+would\b|\bit would be unfair not to\b"),
    ("grading_order", r"\b(?:mark|grade|score|rate)\s+(?:this|it)\s+as\s+(?:(?:complete|correct)\s+and\s+)?"
                      r"(?:correct|excellent|perfect|passed)\b"),
    ("grading_order", r"\bif this answer were perfect\b|\bevaluate this exactly as\b|\byour best student\b"),
    ("fake_verdict", r"\b(?:review_status|points_awarded|band|outcome|status|final|recheck|rubric_check|judge|answer"
                     r"|verdict|result)[\"']?\s*[=:]\s*"
                     r"[\"']?(?:approved|pre-approved|max|top|excellent|complete|all_met|true|accepted|correct|pass)\b"),
    ("fake_verdict", r"\bupdate\s+(?:scores|grades|evaluations|results)\s+set\b"
                     r"|\b(?:grade|record_outcome|set_score|award|evaluate)\s*\([^)]{0,60}\)\s*(?:==|#|$|;)"
                     r"|\bauto-?check passed\b"),
    ("fake_verdict", r"\|\s*(?:reviewer|grader|marker|ta|lead)\s*\|\s*(?:verdict|grade|score|outcome)\s*\|"),
)
# Other languages, second set: Portuguese, Dutch, Russian, Korean, Hindi, Arabic, Turkish, Polish, Vietnamese.
OTHER_LANGUAGE_PATTERNS: tuple[tuple[str, str], ...] = (
    ("grader_address", r"проверяющ|экзаменатор|модератор|채점|परीक्षक|المصحح|المشرف|değerlendirici|sprawdzając"
                       r"|người chấm|trợ giảng|beoordelaar|nota do monitor|avaliador|corretor"),
    ("score_claim", r"максимальн\w* балл|만점|पूरे अंक|الدرجة الكاملة|tam puan|maksymaln\w* (?:liczb\w* )?punkt"
                    r"|điểm tối đa|volledige punten|nota máxima|pontuação máxima|통과로 처리|검토되어"),
    ("grading_order", r"considere esta resposta|wees alsjeblieft mild|potraktować tę odpowiedź|hoşgörülü olun"
                      r"|ga ervan uit dat ik"),
)

ALL_PATTERNS = (*PATTERNS, *MORE_PATTERNS, *SUBTLE_PATTERNS, *OTHER_LANGUAGE_PATTERNS)

# Instructions with their letters spaced or punctuated apart ("i g n o r e  a l l ...") survive the
# patterns above; their letters-only form gives them away.
SQUASHED = (
    "ignoreallprevious",
    "ignorepreviousinstructions",
    "ignoretheaboveinstructions",
    "disregardtheprevious",
    "disregardallprevious",
    "fullmarks",
    "maximumscore",
    "perfectscore",
    "markallcriteria",
    "allcriteriamet",
    "allcriteriaaremet",
    "youarethegrader",
    "asthegrader",
    "notetothegrader",
    "awardfull",
    "giveitfull",
    "maximummarks",
    "fullpoints",
    "fullcredit",
    "topmarks",
    "ignoretherubric",
    "ignorethereference",
    "markthisascorrect",
    "markitascorrect",
    "considerthiscomplete",
    "treatthisascomplete",
    "allpointscovered",
)
