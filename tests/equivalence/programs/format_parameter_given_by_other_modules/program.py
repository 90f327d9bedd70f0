from rag.keywords import keywords
from rag.summary import summary

print(keywords("A fox found a lantern by the river."))
print(summary("A fox found a lantern by the river and carried it home."))
