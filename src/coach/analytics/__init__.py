"""Item statistics from stored attempts. Pure functions over response records read through ResponseSource."""
