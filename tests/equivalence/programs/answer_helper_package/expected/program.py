from helpdesk.answers import answer
from helpdesk.costs import tokens_for

print(answer("Why is the sky blue?"))
print(tokens_for("Colour of the sky?"))
