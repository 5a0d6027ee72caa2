"""FHIR R4 (validated with the fhir.resources R4B models) as a ``LoadedMessage``: every primitive a typed leaf."""
