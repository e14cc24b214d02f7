from coach.content.numbers import bare_numbers


def test_names_placeholders_and_formulas_are_not_bare_numbers() -> None:
    text = "On an H100 with NVLink 4, Llama 3.1 70B in FP8 sends `2(p−1)/p·S` = {bytes} per {tp} GPUs"
    assert bare_numbers(text) == []


def test_prose_numbers_are_found() -> None:
    assert bare_numbers("It takes 53.7 ms over 1,024 links, i.e. 2 hops") == ["53.7", "1024", "2"]
