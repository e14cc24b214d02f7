"""How the negation guard reads a pair of texts (an answer sentence and a criterion phrasing), without a model.

Each case names what it guards: a real contradiction still caught, or a false alarm (seen on the domain dev sets
or on training answers graded correct, SAF and SemEval-2013) that must stay fixed.
"""

from __future__ import annotations

import pytest

from coach.grading.guards.negation import contradiction_votes, topic_stems

CONTRA = "contradicts"  # at least one contradicting clause pair
CONTRA_ONLY = "contradicts, agrees nowhere"
AGREE = "agrees, contradicts nowhere"
NO_CONTRA = "no contradiction"

LIST_REFERENCE = ("2.confirmed connectionless - with ACK, no loss of data (timeout and retransmit instead→ duplicates "
                  "and sequence errors possible), no flow control, no connect or disconnect")

CASES: list[tuple[str, str, str, str | tuple[int, int]]] = [
    # (what the case guards, answer sentence, phrasing, expected votes)
    ("'rather than' keeps the polarity", "decode is memory-bound rather than compute-bound",
     "decode is limited by memory bandwidth, not compute-bound", AGREE),
    ("'rather than' swapped", "decode is compute-bound rather than memory-bound",
     "decode is memory-bound rather than compute-bound", CONTRA_ONLY),
    ("a different claim with a 'not'", "terminal 4 is connected to the positive battery terminal",
     "terminal 4 is not connected to the negative battery terminal", (0, 0)),
    ("the same claim denied", "terminal 4 is connected to the negative battery terminal",
     "terminal 4 is not connected to the negative battery terminal", CONTRA),
    ("an opposite property about something else",
     "the KV cache grows linearly with the sequence length and the batch size",
     "grouped-query attention shrinks the cache", (0, 0)),
    ("an antonym swap", "decode is compute-bound", "decode is memory-bound", CONTRA),
    ("the two latency metrics swapped", "TTFT mostly reflects the decode phase",
     "TPOT reflects the decode phase, one token per step of the running batch", CONTRA_ONLY),
    ("a latency metric spelled out and swapped", "the time per output token covers the prompt's prefill",
     "TTFT covers queueing plus the prompt's prefill", CONTRA_ONLY),
    # "the X-er ..., the Y-er ..." relates two quantities in one claim (SemEval train: lever, truck and blocks)
    ("a correlative comparative read as one claim", "the smaller the batch is, the lower the decode throughput",
     "the larger the batch, the higher the decode throughput", AGREE),
    ("a correlative comparative reversed", "the larger the batch, the lower the decode throughput",
     "the larger the batch, the higher the decode throughput", CONTRA_ONLY),
    ("distance words are quantities", "the closer the effort is to the fulcrum, the more effort it takes",
     "if the effort is applied farther from the fulcrum, less effort will lift the load", AGREE),
    ("distance words reversed", "the farther the effort is from the fulcrum, the more effort it takes",
     "if the effort is applied farther from the fulcrum, less effort will lift the load", CONTRA_ONLY),
    ("'goes further' is distance", "if the truck has fewer blocks it goes further",
     "the more blocks the truck carries, the less distance the truck travels", AGREE),
    ("'further reduces' is no distance", "this further reduces the bubble", "more micro-batches reduce the bubble",
     NO_CONTRA),
    ("negations on different words", "the positive battery terminal is not separated by a gap from terminal 4",
     "there is no gap between terminal 4 and the positive terminal", (0, 0)),
    ("'whether or not'", "when they are on the same path",
     "it depends on whether or not they are in the same path", NO_CONTRA),
    ("a conversion names both members of a family",
     "any GPU reaches any other at 1.8 TB/s bidirectional or 900 GB/s per direction",
     "72 GPUs at 1.8 TB/s bidirectional each", NO_CONTRA),
    ("'stops at 8' denies nothing", "the HGX H100 NVLink domain stops at 8 GPUs",
     "an HGX H100 NVLink domain has only 8 GPUs", NO_CONTRA),
    ("'stops shrinking' denies shrinking", "KV memory per GPU stops shrinking", "KV memory per GPU keeps shrinking",
     CONTRA),
    ("a single 'more' is not a relation", "use more micro-batches",
     "raising the number of micro-batches shrinks it", NO_CONTRA),
    ("'rarely' agrees with 'not'", "in the real world packet arrivals are rarely independent",
     "real traffic comes in bursts, so packet arrivals are not independent", NO_CONTRA),
    ("'not 100% independent' agrees with 'not independent'", "packet arrivals are not 100% independent",
     "packet arrivals are not independent", NO_CONTRA),
    ("a tie between answer clauses goes to agreement",
     "the network speed increases by a factor of 10 and the range shrinks by a factor of 10",
     "the diameter decreases by a factor of 10", (0, 1)),
    ("a two-word fragment is not denied", "no flow control", "flow control", (0, 0)),
    ("change words about different quantities",
     "if you increase the speed by a factor of 10 it will divide the collision domain diameter",
     "diameter decreases by a factor of 10", NO_CONTRA),
    ("change words about different quantities (2)",
     "frame bursting sends frames in a single transmission to increase the distance",
     "frame bursting reduces the overhead by sending frames in one single transmission", NO_CONTRA),
    ("the same quantity changing the other way", "grouped-query attention increases the KV cache",
     "grouped-query attention shrinks the KV cache", CONTRA),
    ("'less than' is a comparison, not a change", "in slow start the cwnd grows exponentially",
     "slow start lasts while the cwnd is less than ss_thresh", NO_CONTRA),
    ("'different ... different' says 'different' once", "yes, because different materials have different solubility",
     "solubility is not the same for all materials", (0, 1)),
    ("the answer's 'not' bears on another word", "they are not contained in the same closed path as the battery",
     "A and C are not in the same path with the battery", NO_CONTRA),
    ("the negated clause says more than the other", "the battery is in a closed path",
     "the bulb is not in the closed path containing the battery", NO_CONTRA),
    ("a 'not' in the clause saying less still denies",
     "a ring all-reduce is not made of a reduce-scatter and an all-gather",
     "a ring all-reduce is itself a reduce-scatter followed by an all-gather, so the bytes moved are the same",
     CONTRA),
    ("'between X and Y' keeps its pair", "the negative terminal is separated by a gap from terminal 4",
     "there is no gap between terminal 4 and the positive terminal", NO_CONTRA),
    ("'between X and Y' denied", "there is a gap between terminal 4 and the positive terminal",
     "there is no gap between terminal 4 and the positive terminal", CONTRA),
    ("a condition stays with its claim", "the shorter string has a higher pitch",
     "if the string is longer, the pitch will be lower", NO_CONTRA),
    ("a condition stays with its claim, swapped", "the longer string has a higher pitch",
     "if the string is longer, the pitch will be lower", CONTRA),
    ("a negation absorbed by a word the other lacks", "switch Y is not in the path of bulb A",
     "switch Y and bulb A are not in the same closed path", NO_CONTRA),
    ("negated list items are no double negation", "Confirmed connectionless: there is flow control or a connect",
     LIST_REFERENCE, (0, 0)),
    ("an elliptical 'if not'", "If not then the packet is discarded as it might be a duplicate packet",
     "broadcasting so that fewer duplicate packets are discarded", NO_CONTRA),
    ("'the speed of' names a quantity, not 'fast'", "with a small learning rate convergence is slow",
     "the learning rate controls the speed of convergence", NO_CONTRA),
    ("a bare claim does not deny a relation", "learning rate too low: learning is slow and takes more time",
     "a larger rate speeds up learning", NO_CONTRA),
    ("a relation denied by a relation", "a larger learning rate slows down learning",
     "a larger learning rate speeds up learning", CONTRA),
    ("'A before B' says 'B after A'", "the reduce-scatter runs before the all-gather",
     "the all-gather follows the reduce-scatter", AGREE),
    ("'A before B' denies 'A after B'", "the all-gather runs before the reduce-scatter",
     "the all-gather follows the reduce-scatter", CONTRA_ONLY),
    ("a converse with its arguments swapped (found with a CS-course probe)",
     "postorder visits children before the parent", "postorder visits it after its children", AGREE),
    ("the same order word with the arguments swapped", "children are visited after the parent in postorder",
     "postorder visits the node after its children", CONTRA_ONLY),
    ("swapped arguments about another subject", "postorder visits children before the parent",
     "preorder visits a node before its children", (0, 0)),
    ("both phases named in no order (found with a probe of the bank's items)",
     "a long prompt prefilled in the same step stalls every running decode",
     "when a server batches a new long prompt together with running decodes, that step takes as long as the prefill",
     NO_CONTRA),
    ("both phases named in an order", "decode runs first, then prefill", "prefill runs first, then decode", CONTRA),
    ("'unlike X' denies X", "DP-attention ranks share the MoE layers, unlike independent replicas",
     "DP-attention ranks are not independent replicas, they share the MoE layers", NO_CONTRA),
    ("'not ... every' denies the quantifier (found with a probe of the bank's items)",
     "a token isn't sent to every expert, only to its top-k",
     "each token is only sent to its top-k experts whatever the expert count", NO_CONTRA),
    ("'not ... every' against 'every'", "a token is not sent to every expert", "a token is sent to every expert",
     CONTRA),
    ("'not ... all' against 'all'", "Llama 70B does not need all four GPUs", "Llama 70B in BF16 needs all four GPUs",
     CONTRA),
    ("'at all' is emphasis, not a quantifier", "the node does not forward the packet at all",
     "the node forwards the packet to its neighbours", CONTRA),
    ("'later' describes, it relates nothing", "in an array you have to move every element after the spot",
     "an array must shift all later elements", NO_CONTRA),
    ("'without V-ing' is a claim of its own (found with a CS-course probe)",
     "peek reads the top without removing it",
     "A stack supports push (add an element to the top), pop (remove the top element) and top/peek", NO_CONTRA),
    ("'X instead of Y' picks one of 'X or Y' (found with a CS-course probe)",
     "a List ADT can be implemented with an array instead of a linked list",
     "a stack ADT can be implemented with an array or a linked list", NO_CONTRA),
    ("'X, not Y' against Y alone", "a stack can be implemented with an array, not a linked list",
     "a stack can be implemented with a linked list", CONTRA),
    ("a condition inside a sentence is no claim (found with a probe of the bank's items)",
     "round robin gives each replica the same number of requests, which only works if replicas are equally capable",
     "round robin splits requests evenly even though the replicas have different capacities", NO_CONTRA),
    ("the same words as a claim", "the replicas are equally capable", "the replicas have different capacities",
     CONTRA),
    ("'constant as X grows' says nothing grows (found with a probe of the bank's items)",
     "Without a KV cache, each new token would require recomputing keys and values for the entire prefix, so the "
     "work per token would grow with the context", "the cache keeps the work per generated token constant as the "
     "context grows", NO_CONTRA),
    ("'avoid X' agrees with 'never X' (found with a probe of the bank's items)",
     "eight independent replicas avoid communication entirely",
     "eight independent replicas give higher throughput per GPU because they never communicate", NO_CONTRA),
    ("'avoid X' denies X", "the replicas avoid communication between steps",
     "the replicas need communication between steps", CONTRA),
    ("'smaller on the left' says 'larger on the right' (found with a CS-course probe)",
     "smaller values are in the left subtree", "larger values are stored in its right subtree", NO_CONTRA),
    ("left and right swapped", "smaller values are stored in the right subtree",
     "larger values are stored in its right subtree", CONTRA),
    ("'no copy by reference' says 'a copy by value' (found with a CS-course probe)",
     "with pass by reference no copy is made", "pass by value copies the argument", NO_CONTRA),
    ("value and reference swapped", "pass by reference copies the argument",
     "pass by value copies the argument", CONTRA),
    ("a converse between comparatives (found with a CS-course probe)", "long jobs are run after the short ones",
     "running shorter jobs before longer ones means fewer jobs wait", NO_CONTRA),
    ("a converse between comparatives, reversed", "short jobs are run after the long ones",
     "running shorter jobs before longer ones", CONTRA),
    ("a reason after a leading 'Without X,' is a fact (found with a probe of the bank's items)",
     "Without chunking, the long prompt is prefilled in one iteration that takes 64x as long, more because "
     "attention grows faster than linearly", "attention cost grows faster than linearly", AGREE),
    ("the claim under a leading 'Without X,' is negated", "Without a KV cache, attention grows faster than linearly",
     "attention cost grows faster than linearly", CONTRA),
    ("a unit beside a change word is what changes (found with a probe of the bank's items)",
     "fewer tokens to compute via prefix caching", "the fix is more compute", NO_CONTRA),
    ("less against more of the same", "we would need less compute", "the fix is more compute", CONTRA),
    ("a 'since' reason stays apart from its claim (found with a CS-course probe)",
     "When passed by value, nothing the function does to the parameter can affect the caller's variable, since "
     "it's only a copy.", "Pass-by-value gives the function a copy of the argument", NO_CONTRA),
    ("a short 'but' clause stays apart from the claim before it (a SemEval training answer graded correct)",
     "because the battery is in the closed path but the bulb is not",
     "The bulb is not in the closed path containing the battery", NO_CONTRA),
    ("LIFO and FIFO swapped (a misconception in a CS-course probe)", "A stack is FIFO and a queue is LIFO",
     "A stack is LIFO: items are pushed and popped at the top", CONTRA),
    ("'last in, first out' is LIFO", "a stack is last-in, first-out", "a stack is LIFO", AGREE),
    ("an arrow starts a new claim; 'wrong' denies only its part (found with a CS-course probe)",
     "a negative edge breaks this -> shorter path found after finalizing -> wrong distance",
     "a path discovered later that goes through a negative edge can be shorter", NO_CONTRA),
    ("a claim about another named configuration (a colleague's paraphrase in the domain dev set)",
     "whereas TP8 × PP2 keeps all-reduces inside each node", "TP16 puts both per-layer all-reduces on the "
     "inter-node link", NO_CONTRA),
    ("the same named configuration reversed", "TP16 keeps all-reduces inside each node",
     "TP16 puts both per-layer all-reduces on the inter-node link", CONTRA),
]


@pytest.mark.parametrize(("answer", "phrasing", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_contradiction_votes(answer: str, phrasing: str, expected: str | tuple[int, int]) -> None:
    contra, agree = contradiction_votes(answer, phrasing)
    if isinstance(expected, tuple):
        assert (contra, agree) == expected
    elif expected == CONTRA:
        assert contra >= 1
    elif expected == CONTRA_ONLY:
        assert contra >= 1 and agree == 0
    elif expected == AGREE:
        assert contra == 0 and agree >= 1
    else:
        assert contra == 0



COPY_QUESTION = "Why should a class with dynamically allocated memory define a copy constructor?"
COPY_REFERENCE = ("The default copy constructor copies the pointer only (a shallow copy), so two objects would share "
                  "and both delete the same memory; a user-defined one makes a deep copy.")


@pytest.mark.parametrize(("answer", "contradicts"), [
    ("to do a deep copy instead of a shallow copy", False),  # denies "shallow"; the fragment "(a shallow copy)"
    ("to make a shallow copy instead of a deep copy", True),  # ... is no claim, "makes a deep copy" is one
])
def test_a_negation_of_a_word_beside_the_questions_polar_word(answer: str, contradicts: bool) -> None:
    # "copy" is polar (replicated/sharded) and the question's own: agreeing on it says nothing; "instead of" decides
    topic = topic_stems(COPY_QUESTION)
    contra = sum(contradiction_votes(answer, part, topic)[0] for part in COPY_REFERENCE.split("; "))
    assert (contra > 0) is contradicts

