"""Extract recipes with a strict JSON schema that nests objects in arrays."""

import json

from openai import OpenAI

RECIPE_FORMAT = {
    "type": "json_schema",
    "json_schema": {
        "name": "recipe",
        "description": "A recipe with its ingredients and steps",
        "schema": {
            "type": "object",
            "properties": {
                "title": {"type": "string"},
                "servings": {"type": "integer"},
                "ingredients": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "name": {"type": "string"},
                            "quantity": {"type": "string"},
                        },
                        "required": ["name", "quantity"],
                        "additionalProperties": False,
                    },
                },
                "steps": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["title", "servings", "ingredients", "steps"],
            "additionalProperties": False,
        },
        "strict": True,
    },
}

DISHES = ["pancakes", "guacamole"]


def main() -> None:
    client = OpenAI()
    for dish in DISHES:
        completion = client.chat.completions.create(
            model="gpt-5-mini",
            messages=[{"role": "user", "content": f"Give me a simple recipe for {dish}."}],
            response_format=RECIPE_FORMAT,
            verbosity="low",
        )
        recipe = json.loads(completion.choices[0].message.content)
        print(f"{recipe['title']} (serves {recipe['servings']})")
        for ingredient in recipe["ingredients"]:
            print(f"  - {ingredient['quantity']} {ingredient['name']}")
        for number, step in enumerate(recipe["steps"], 1):
            print(f"  {number}. {step}")


if __name__ == "__main__":
    main()
