"""The good fixture site: valid blocks in every form the plugin accepts, and fences it must leave alone."""

from __future__ import annotations

# The author's inputs of the first block on the index page (a Google TPU v5e).
AUTHOR_INPUTS = {"peak_tflops": 197, "bandwidth_tbs": 0.819, "intensity": 240}

GOOD_SITE = {
    "docs/index.md": """---
title: Two calculators
---

# Two calculators

```calculator
use: roofline
peak_tflops: 197
bandwidth_tbs: 0.819
intensity: 240
```

The same calculator with its defaults:

```calculator
use: roofline
```
""",
    "docs/guide.md": """# Writing a calculator block

`````markdown
````calculator
use: not-a-calculator
````
`````

````markdown
```calculator
use: roofline
intensity: -1
```
````
""",
    "docs/forms.md": """# Other fences

!!! note "Try it"

    ```calculator
    use: roofline
    intensity: 20
    ```

~~~calculator
use: roofline
intensity: 30
~~~

````calculator
use: roofline
intensity: 40
````
""",
    "docs/other-languages.md": """# Fences of other languages, and a slip shown as an example

```python
x = 1
```

````markdown
```calcualtor
use: roofline
```
````
""",
    "docs/footnotes.md": """# Notes

A figure[^a] and a list item:

- cited again[^a]:

[^a]: A source.
    Continued.
""",
    "docs/numbers.md": """# Numbers written with a comma

```calculator
use: roofline
intensity: 9,5
```

```calculator
use: roofline
intensity: 1,400.0
```
""",
}
