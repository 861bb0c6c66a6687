"""The MkDocs plugin that turns ```calculator fences into live calculators backed by the `calculators` package."""
