"""What the code means, as facts: nodes and their places, bindings and what reaches each read,
where values go. Nothing here knows of OpenAI, and nothing here rewrites code."""
